import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AA for `bench/lock-timing.ts` (issue #32, fourteenth round), written and committed
 * before the round's first model change, to be run once after the round's last. Shapes no
 * earlier set or calibration table has:
 * - network sessions of a VPN gateway: a bigint identity key, a device they reference (a parent
 *   of 10,000 rows, ON DELETE CASCADE), a client address in `inet`, a start day in `date`, a
 *   duration in double precision, bytes in and out in bigint, a user agent in varchar(300), a
 *   state in an enum type of three labels, a session token in bytea; three indexes besides the
 *   key (the device, the start day, a unique one on the token);
 * - a daily traffic summary filled by an aggregating INSERT ... SELECT;
 * - statements: a CHECK over the byte counts, a foreign key validated, an UPDATE expiring the
 *   open sessions of the older days (an enum compared, no index on it), an UPDATE scaling the
 *   durations of one private network (`<<` on an inet the planner guesses), an UPDATE cutting the
 *   long user agents (a function in the predicate), a DELETE of the closed sessions of the oldest
 *   tenth, a DELETE of a hundred devices cascading into their sessions, the aggregating INSERT, an
 *   index on the double precision duration, a GiST index on the address (`inet_ops`), an index on
 *   the user agent in the "C" collation, a unique index on three columns built CONCURRENTLY, a
 *   stored generated column added (a rewrite computing it for every row), the duration's type
 *   changed to numeric (a rewrite rebuilding four indexes and checking the CHECK again), SET NOT NULL on the user agent and a
 *   column added with a constant default (the catalog only).
 * Variant A: 1M sessions in day order, devices taking turns, addresses in a few networks, short
 * user agents. Variant B: 350k sessions in no order, a tenth of the devices holding most, user
 * agents of about 250 bytes, at fillfactor 90.
 */
export function setAA(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const devices = 10_000;
  const device = b ? `CASE WHEN g % 10 < 8 THEN 1 + (g * 7) % 1000 ELSE 1 + (g * 13) % ${devices} END` : `1 + g % ${devices}`;
  const day = b ? `date '2023-01-01' + ((g * 7877) % 730)::int` : `date '2023-01-01' + (g * 730 / ${n})::int`;
  const ip = b
    ? `('10.' || (g % 256) || '.' || ((g * 31) % 256) || '.' || ((g * 17) % 256))::inet`
    : `(CASE WHEN g % 3 = 0 THEN '10.1.' ELSE '192.168.' END || ((g / 256) % 256) || '.' || (g % 256))::inet`;
  const agent = b
    ? `'Mozilla/5.0 (X11; Linux x86_64) ' || repeat('AppleWebKit/' || (g % 600) || ' ', 12) || 'client ' || g`
    : `'vpn-client/' || (g % 40) || '.' || (g % 7) || CASE WHEN g % 50 = 0 THEN ' (' || repeat('ext ', 30) || ')' ELSE '' END`;
  const setup = [
    `DROP TABLE IF EXISTS haa_sessions, haa_devices, haa_daily CASCADE`,
    `DROP TYPE IF EXISTS haa_state`,
    `CREATE TYPE haa_state AS ENUM ('open', 'closed', 'expired')`,
    `CREATE TABLE haa_devices (id int PRIMARY KEY, label text NOT NULL, owner text NOT NULL)`,
    `INSERT INTO haa_devices SELECT g, 'device-' || g, 'team-' || (g % 120) FROM generate_series(1, ${devices}) g`,
    `CREATE TABLE haa_sessions (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, device_id int NOT NULL, client_ip inet NOT NULL,
       started_on date NOT NULL, duration_s double precision NOT NULL, bytes_in bigint NOT NULL, bytes_out bigint NOT NULL,
       user_agent varchar(300), state haa_state NOT NULL, token bytea NOT NULL)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO haa_sessions (device_id, client_ip, started_on, duration_s, bytes_in, bytes_out, user_agent, state, token)
     SELECT ${device}, ${ip}, ${day}, (g % 7200) * 1.37 + 0.5, (g * 7919) % 50000000, (g * 104729) % 9000000, ${agent},
            (CASE WHEN g % 10 = 0 THEN 'open' WHEN g % 10 < 8 THEN 'closed' ELSE 'expired' END)::haa_state,
            decode(md5('token' || g), 'hex')
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX haa_sessions_device ON haa_sessions (device_id)`,
    `CREATE INDEX haa_sessions_day ON haa_sessions (started_on)`,
    `CREATE UNIQUE INDEX haa_sessions_token ON haa_sessions (token)`,
    `CREATE TABLE haa_daily (day date NOT NULL, device_id int NOT NULL, sessions int NOT NULL, bytes numeric NOT NULL, PRIMARY KEY (day, device_id))`,
    `VACUUM ANALYZE haa_devices, haa_sessions`,
  ];
  const statements = [
    `ALTER TABLE haa_sessions ADD CONSTRAINT haa_bytes_ok CHECK (bytes_in >= 0 AND bytes_out >= 0 AND duration_s >= 0)`,
    `SETUP ALTER TABLE haa_sessions ADD CONSTRAINT haa_sessions_device_fk FOREIGN KEY (device_id) REFERENCES haa_devices (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE haa_sessions VALIDATE CONSTRAINT haa_sessions_device_fk`,
    `UPDATE haa_sessions SET state = 'expired' WHERE state = 'open' AND started_on < date '2023-07-01'`,
    `UPDATE haa_sessions SET duration_s = duration_s / 60 WHERE client_ip << inet '10.1.0.0/16'`,
    `UPDATE haa_sessions SET user_agent = left(user_agent, 64) WHERE length(user_agent) > 100`,
    `DELETE FROM haa_sessions WHERE state = 'closed' AND started_on < date '2023-03-15'`,
    `DELETE FROM haa_devices WHERE id BETWEEN 501 AND 600`,
    `INSERT INTO haa_daily SELECT started_on, device_id, count(*), sum(bytes_in + bytes_out) FROM haa_sessions GROUP BY started_on, device_id`,
    `CREATE INDEX haa_a1 ON haa_sessions (duration_s)`,
    `DROP INDEX haa_a1`,
    `CREATE INDEX haa_a2 ON haa_sessions USING gist (client_ip inet_ops)`,
    `DROP INDEX haa_a2`,
    `CREATE INDEX haa_a3 ON haa_sessions (user_agent COLLATE "C")`,
    `DROP INDEX haa_a3`,
    `CREATE UNIQUE INDEX CONCURRENTLY haa_a4 ON haa_sessions (device_id, started_on, id)`,
    `DROP INDEX haa_a4`,
    `ALTER TABLE haa_sessions ADD COLUMN bytes_total bigint GENERATED ALWAYS AS (bytes_in + bytes_out) STORED`,
    `ALTER TABLE haa_sessions ALTER COLUMN duration_s TYPE numeric(12,3)`,
    `ALTER TABLE haa_sessions ALTER COLUMN user_agent SET NOT NULL`,
    `ALTER TABLE haa_sessions ADD COLUMN region text NOT NULL DEFAULT 'eu'`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO haa_daily') ? 'haa_daily' : sql.includes('haa_devices WHERE') ? 'haa_devices' : 'haa_sessions'),
  };
}
