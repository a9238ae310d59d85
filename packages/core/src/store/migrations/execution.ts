import type { SchemaMigration } from '../migrate';

/**
 * Schema of the execution feature: one row per accepted approval token.
 * Append, never edit an applied entry.
 */
export const executionMigrations: readonly SchemaMigration[] = [
  {
    id: '0301_migration_requests',
    statements: [
      `CREATE TABLE migration_requests (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        token_nonce text NOT NULL,
        sql text NOT NULL,
        sql_sha256 text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'executing', 'completed', 'failed')),
        progress text,
        result jsonb,
        error jsonb,
        attempt_id uuid,
        lease_expires_at timestamptz,
        current_statement integer,
        applied jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz
      )`,
      // Single use of a token: concurrent replays collapse onto one row (spec section 3).
      `CREATE UNIQUE INDEX migration_requests_nonce ON migration_requests (token_nonce)`,
      // One migration at a time per connection (spec section 8), enforced by the database.
      `CREATE UNIQUE INDEX migration_requests_one_active ON migration_requests (connection_id) WHERE status IN ('pending', 'executing')`,
      `CREATE INDEX migration_requests_connection_recent ON migration_requests (connection_id, created_at DESC, id DESC)`,
      `CREATE INDEX migration_requests_leases ON migration_requests (lease_expires_at) WHERE status = 'executing'`,
    ],
  },
  {
    id: '0302_migration_requests_catalog_before',
    statements: [
      // What the catalog showed, before the run, for every statement whose effect one look-up
      // proves (catalog-effects.ts): a lost executor's record is rebuilt by comparing with it.
      `ALTER TABLE migration_requests ADD COLUMN catalog_before jsonb`,
    ],
  },
  {
    id: '0303_migration_request_batches',
    statements: [
      // A batched step's progress (migration-execution/batch-ledger.ts): the statement it belongs
      // to, the rows it will change (counted at its start) and has changed, and how many times a
      // lost executor's run was resumed.
      `ALTER TABLE migration_requests ADD COLUMN batched_statement integer, ADD COLUMN rows_total bigint, ADD COLUMN rows_done bigint,
         ADD COLUMN resumes integer NOT NULL DEFAULT 0`,
      // Each batch's key range and target transaction id, recorded before its COMMIT and marked
      // done after it: a resumed run asks the target whether a pending batch committed.
      `CREATE TABLE migration_request_batches (
        request_id uuid NOT NULL REFERENCES migration_requests(id) ON DELETE CASCADE,
        statement_index integer NOT NULL,
        batch_no integer NOT NULL,
        lower_key text,
        upper_key text,
        xid text NOT NULL,
        rows bigint NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'done', 'aborted')),
        attempt_id uuid NOT NULL,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (request_id, statement_index, batch_no)
      )`,
    ],
  },
  {
    id: '0304_migration_request_handoffs',
    statements: [
      // How many times a run inside a batched step stopped near the executor's time limit and
      // passed the request to a new executor run (request-store.ts, handOffRequest). Counted apart
      // from `resumes`, which bounds resumes after lost executors.
      `ALTER TABLE migration_requests ADD COLUMN handoffs integer NOT NULL DEFAULT 0`,
    ],
  },
];
