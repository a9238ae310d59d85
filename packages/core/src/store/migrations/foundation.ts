import type { SchemaMigration } from '../migrate';

/** Users, credits, usage, API keys and the rate-limit counter. */
export const foundationMigrations: readonly SchemaMigration[] = [
  {
    id: '0001_users_and_credits',
    statements: [
      `CREATE TABLE users (
        id uuid PRIMARY KEY,
        issuer text NOT NULL,
        subject text NOT NULL,
        balance numeric(20,4) NOT NULL DEFAULT 10.0000 CHECK (balance >= 0),
        total_spent numeric(20,4) NOT NULL DEFAULT 0,
        total_requests integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (issuer, subject)
      )`,
      `CREATE TABLE usage_records (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        method text NOT NULL,
        path text NOT NULL,
        cost numeric(20,4) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX usage_records_user_recent ON usage_records (user_id, id DESC)`,
    ],
  },
  {
    id: '0002_api_keys',
    statements: [
      `CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`,
      `CREATE INDEX api_keys_user_active ON api_keys (user_id) WHERE revoked_at IS NULL`,
    ],
  },
  {
    id: '0003_rate_limits',
    statements: [
      `CREATE TABLE rate_limit_windows (
        user_id uuid NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (user_id, window_start)
      )`,
    ],
  },
];
