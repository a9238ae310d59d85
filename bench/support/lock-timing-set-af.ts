import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AF for `bench/lock-timing.ts` (issue #32, eighteenth round), written and committed
 * after sets AD and AE ran and before the round's change, to be run once after it. Shapes no
 * earlier set or calibration table has:
 * - user accounts: a bigint key, an email with a unique index on its lower-cased value, a username
 *   in varchar(30) under a CHECK on its length, a country in char(2), a birth date, small jsonb
 *   settings, a last login NULL on a third of the rows, a score; sessions referencing their user
 *   (ON DELETE CASCADE, three a user) with an expiry;
 * - statements: a CHECK on the score, the sessions' foreign key validated, an UPDATE clearing old
 *   logins, an UPDATE merging a flag into the settings of two countries, a DELETE of users who
 *   never logged in (cascading into their sessions), a DELETE of expired sessions, an aggregating
 *   INSERT by country, the username widened to varchar(50) (no rewrite, but its CHECK is checked
 *   again on every row: written after AE showed a widened numeric under a CHECK taking 95-155 ms
 *   where 1 ms was predicted), an index on country and birth date, a partial index on the last
 *   login, a GIN index on the settings (jsonb_path_ops), an index on the creation time built
 *   CONCURRENTLY, the score's type changed to bigint (a rewrite), SET NOT NULL on the country and
 *   a column added.
 * Variant A: 1M users in creation order, each user's sessions together. Variant B: 300k users in no
 * order, their sessions spread over the table, a bio of about 500 bytes on a quarter of the users,
 * at fillfactor 90.
 */
export function setAF(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  // In B the users go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const created = `timestamptz '2020-01-01' + (${k} * 157680000.0 / ${n}) * interval '1 second'`;
  const login = `CASE WHEN ${k} % 3 = 0 THEN NULL ELSE timestamptz '2024-01-01' + ((${k} * 104729) % 31536000) * interval '1 second' END`;
  const bio = b ? `CASE WHEN ${k} % 4 = 0 THEN repeat('about me ' || md5(${k}::text), 12) END` : 'NULL';
  // Sessions: three a user; in A each user's three together, in B spread by a permutation of the session number.
  const sessions = 3 * n;
  const s = b ? `((g::bigint * 104729) % ${sessions})` : '(g::bigint - 1)';
  const setup = [
    `DROP TABLE IF EXISTS haf_sessions, haf_users, haf_country_stats CASCADE`,
    `CREATE TABLE haf_users (id bigint PRIMARY KEY, email text NOT NULL, username varchar(30) NOT NULL CHECK (length(username) >= 3), country char(2),
       birth date, settings jsonb NOT NULL, created_at timestamptz NOT NULL, last_login timestamptz, score int NOT NULL, bio text)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO haf_users
     SELECT ${k}, 'User' || ${k} || '@' || (ARRAY['mail.example', 'post.example', 'Inbox.example'])[1 + ${k} % 3], 'user_' || ${k},
            (ARRAY['DE', 'FR', 'US', 'GB', 'BR', 'IN', 'JP', 'NL', 'SE', 'ES'])[1 + (${k} * 7) % 10], date '1960-01-01' + ((${k} * 37) % 16000)::int,
            jsonb_build_object('theme', (ARRAY['dark', 'light'])[1 + ${k} % 2], 'lang', (ARRAY['de', 'en', 'fr'])[1 + ${k} % 3], 'digest', ${k} % 5 = 0),
            ${created}, ${login}, ((${k} * 13) % 5000)::int, ${bio}
     FROM generate_series(1, ${n}) g`,
    `CREATE UNIQUE INDEX haf_users_email ON haf_users (lower(email))`,
    `CREATE TABLE haf_sessions (id bigint PRIMARY KEY, user_id bigint NOT NULL, token uuid NOT NULL, expires_at timestamptz NOT NULL)`,
    `INSERT INTO haf_sessions SELECT ${s} + 1, ${s} / 3 + 1, md5('s' || ${s})::uuid, timestamptz '2024-06-01' + ((${s} * 7) % 20000000) * interval '1 second'
     FROM generate_series(1, ${sessions}) g`,
    `CREATE INDEX haf_sessions_user ON haf_sessions (user_id)`,
    `CREATE TABLE haf_country_stats (country char(2), users bigint NOT NULL, avg_score numeric NOT NULL)`,
    `VACUUM ANALYZE haf_users, haf_sessions`,
  ];
  const statements = [
    `ALTER TABLE haf_users ADD CONSTRAINT haf_score_ok CHECK (score >= 0)`,
    `SETUP ALTER TABLE haf_sessions ADD CONSTRAINT haf_sessions_user_fk FOREIGN KEY (user_id) REFERENCES haf_users (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE haf_sessions VALIDATE CONSTRAINT haf_sessions_user_fk`,
    `UPDATE haf_users SET last_login = NULL WHERE last_login < timestamptz '2024-02-01'`,
    `UPDATE haf_users SET settings = settings || '{"beta": true}' WHERE country IN ('DE', 'FR')`,
    `DELETE FROM haf_users WHERE last_login IS NULL AND created_at < timestamptz '2020-07-01'`,
    `DELETE FROM haf_sessions WHERE expires_at < timestamptz '2024-07-01'`,
    `INSERT INTO haf_country_stats SELECT country, count(*), avg(score) FROM haf_users GROUP BY country`,
    `ALTER TABLE haf_users ALTER COLUMN username TYPE varchar(50)`,
    `CREATE INDEX haf_c1 ON haf_users (country, birth)`,
    `DROP INDEX haf_c1`,
    `CREATE INDEX haf_c2 ON haf_users (last_login) WHERE last_login IS NOT NULL`,
    `DROP INDEX haf_c2`,
    `CREATE INDEX haf_c3 ON haf_users USING gin (settings jsonb_path_ops)`,
    `DROP INDEX haf_c3`,
    `CREATE INDEX CONCURRENTLY haf_c4 ON haf_users (created_at)`,
    `DROP INDEX haf_c4`,
    `ALTER TABLE haf_users ALTER COLUMN score TYPE bigint`,
    `ALTER TABLE haf_users ALTER COLUMN country SET NOT NULL`,
    `ALTER TABLE haf_users ADD COLUMN deleted_at timestamptz`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      sql.startsWith('INSERT INTO haf_country_stats ')
        ? 'haf_country_stats'
        : sql.includes('haf_sessions') && !sql.includes('haf_users')
          ? 'haf_sessions'
          : 'haf_users',
  };
}
