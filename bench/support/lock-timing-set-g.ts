import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set G for `bench/lock-timing.ts` (issue #32, fifth round), written and committed
 * before that round's model changes and run only when they are final (set F, run first, is what
 * the changes were made against). Shapes no earlier set or calibration table has:
 * - web sessions keyed by a 64-character hex token (a text primary key), HASH-partitioned into
 *   eight partitions, with a citext e-mail column, an int[] of scopes under GIN, an index with
 *   INCLUDE columns, and a partial index on open sessions;
 * - users with a counter cache kept by a trigger: every session inserted or deleted updates its
 *   user's row (real work per row, in another table);
 * - statements: an anti-join DELETE (NOT EXISTS), an UPDATE that sets a wide column to NULL, a
 *   UNIQUE constraint and a primary key added (index builds through ALTER TABLE), an int to
 *   bigint change of an indexed column (a rewrite rebuilding its indexes), SET NOT NULL on a
 *   partitioned table, a CHECK added NOT VALID and validated, a citext index, an INSERT ... SELECT
 *   routed across hash partitions firing the counter trigger.
 * Variant A: 1M sessions, even over 100k users, short user agents. Variant B: fewer sessions
 * (400k at the default size) with 600-byte user agents, 80 % of them on 5 % of the users, and
 * more of them open.
 */
export function setG(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const users = 100_000;
  const user = b ? `CASE WHEN g % 10 < 8 THEN 1 + (g * 7) % ${users / 20} ELSE 1 + (g * 7) % ${users} END` : `1 + (g * 7) % ${users}`;
  const agent = b ? `repeat('Mozilla/5.0 (X11; Linux x86_64) ', 19) || (g % 97)` : `'agent-' || (g % 97)`;
  const setup = [
    `DROP TABLE IF EXISTS hg_sessions, hg_users, hg_grants CASCADE`,
    `CREATE EXTENSION IF NOT EXISTS citext`,
    `CREATE TABLE hg_users (id bigint NOT NULL, email citext NOT NULL, sessions_count int NOT NULL DEFAULT 0, created_at timestamptz NOT NULL)`,
    `INSERT INTO hg_users SELECT g, 'User' || g || '@Example.com', 0, timestamptz '2020-01-01' + g * interval '17 minutes' FROM generate_series(1, ${users}) g`,
    `CREATE UNIQUE INDEX hg_users_id ON hg_users (id)`,
    `CREATE TABLE hg_sessions (token text NOT NULL, user_id bigint NOT NULL, email citext, scopes int[] NOT NULL, user_agent text, opened_at timestamptz NOT NULL,
       closed_at timestamptz, hits int NOT NULL DEFAULT 0) PARTITION BY HASH (token)`,
    ...Array.from({ length: 8 }, (_, i) => `CREATE TABLE hg_sessions_p${i} PARTITION OF hg_sessions FOR VALUES WITH (MODULUS 8, REMAINDER ${i})`),
    `INSERT INTO hg_sessions SELECT md5(g::text) || md5((g * 3)::text), ${user}, 'User' || (${user}) || '@Example.com',
       ARRAY[1 + g % 20, 21 + g % 7]::int[], ${agent}, timestamptz '2024-01-01' + g * interval '20 seconds',
       CASE WHEN g % 10 < ${b ? 4 : 8} THEN timestamptz '2024-01-01' + g * interval '20 seconds' + interval '2 hours' END, g % 50
     FROM generate_series(1::bigint, ${n}) g`,
    `ALTER TABLE hg_sessions ADD PRIMARY KEY (token)`,
    `CREATE INDEX hg_sessions_user ON hg_sessions (user_id) INCLUDE (opened_at)`,
    `CREATE INDEX hg_sessions_scopes ON hg_sessions USING gin (scopes)`,
    `CREATE INDEX hg_sessions_open ON hg_sessions (opened_at) WHERE closed_at IS NULL`,
    `UPDATE hg_users u SET sessions_count = s.n FROM (SELECT user_id, count(*) AS n FROM hg_sessions GROUP BY user_id) s WHERE s.user_id = u.id`,
    `CREATE OR REPLACE FUNCTION hg_count() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN
       IF TG_OP = 'INSERT' THEN UPDATE hg_users SET sessions_count = sessions_count + 1 WHERE id = NEW.user_id;
       ELSE UPDATE hg_users SET sessions_count = sessions_count - 1 WHERE id = OLD.user_id; END IF;
       RETURN NULL; END$$`,
    `CREATE TRIGGER hg_sessions_count AFTER INSERT OR DELETE ON hg_sessions FOR EACH ROW EXECUTE FUNCTION hg_count()`,
    `CREATE TABLE hg_grants (id bigint GENERATED ALWAYS AS IDENTITY, user_id bigint NOT NULL, scope int NOT NULL, granted_at timestamptz NOT NULL DEFAULT now())`,
    `INSERT INTO hg_grants (user_id, scope) SELECT 1 + (g * 13) % ${users}, 1 + g % 20 FROM generate_series(1, ${users * 3}) g`,
    `VACUUM ANALYZE hg_users, hg_sessions, hg_grants`,
  ];
  const statements = [
    // Sets a wide column to NULL on closed sessions (HOT where the page has room: user_agent is not indexed).
    `UPDATE hg_sessions SET user_agent = NULL WHERE closed_at < timestamptz '2024-01-01' + interval '${Math.round(n * 20 * 0.3)} seconds'`,
    // Changes a GIN-indexed array: new GIN entries per row, routed to every partition.
    `UPDATE hg_sessions SET scopes = scopes || 99 WHERE hits = 7`,
    `UPDATE hg_users SET email = lower(email)::citext WHERE id % 4 = 1`,
    // An anti-join: sessions of users with no grant of scope 3.
    `DELETE FROM hg_sessions s WHERE s.hits = 11 AND NOT EXISTS (SELECT 1 FROM hg_grants g WHERE g.user_id = s.user_id AND g.scope = 3)`,
    `DELETE FROM hg_grants WHERE granted_at IS NOT NULL AND scope = 17`,
    `ALTER TABLE hg_users ADD CONSTRAINT hg_users_email UNIQUE (email)`,
    `ALTER TABLE hg_grants ADD PRIMARY KEY (id)`,
    `CREATE INDEX hg_g1 ON hg_sessions (email)`,
    `DROP INDEX hg_g1`,
    `CREATE INDEX hg_g2 ON hg_grants (user_id, scope) INCLUDE (granted_at)`,
    `DROP INDEX hg_g2`,
    `ALTER TABLE hg_sessions ALTER COLUMN opened_at SET NOT NULL`,
    `ALTER TABLE hg_sessions ALTER COLUMN email SET NOT NULL`,
    `SETUP ALTER TABLE hg_grants ADD CONSTRAINT hg_grants_scope CHECK (scope BETWEEN 1 AND 100) NOT VALID`,
    `ALTER TABLE hg_grants VALIDATE CONSTRAINT hg_grants_scope`,
    // Routed across the hash partitions; each row fires the counter trigger (an UPDATE of its user).
    `INSERT INTO hg_sessions SELECT md5(token), user_id, email, scopes, user_agent, opened_at + interval '1 year', NULL, 0 FROM hg_sessions WHERE hits = 3`,
    // Rewrites hg_grants and rebuilds its primary key (and the index just added).
    `ALTER TABLE hg_grants ALTER COLUMN scope TYPE bigint`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      /hg_grants/.test(sql) && !/^DELETE FROM hg_sessions/.test(sql)
        ? 'hg_grants'
        : /hg_users/.test(sql) && !/hg_sessions/.test(sql)
          ? 'hg_users'
          : 'hg_sessions',
  };
}
