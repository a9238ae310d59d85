import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set S for `bench/lock-timing.ts` (issue #32, ninth round), written and committed
 * before the round's first model change, to be run once on the model the round ends with. Shapes
 * no earlier set or calibration table has:
 * - sensor readings: a bigint key, a device they reference (a parent of 20k rows), a reading time,
 *   a double precision value, a quality code in smallint with four values, a unit in text, a
 *   bytea payload, and three indexes besides the key (one on the quality code);
 * - a daily summary filled by an aggregating INSERT ... SELECT over two grouping keys;
 * - statements: a CHECK on the value, a foreign key added NOT VALID and then validated, an UPDATE
 *   of one quality code to another (through its index), an UPDATE of the values of a range of
 *   devices, a DELETE of the oldest readings, a DELETE on a quality code and a unit, the
 *   aggregating INSERT, a two-column index, a BRIN index on the time, an index with
 *   text_pattern_ops, a unique index over two columns, SET NOT NULL on the unit, a type change of
 *   the quality code (smallint to int: a rewrite rebuilding five indexes) and a column added
 *   without a default (the catalog only).
 * Variant A: 1.5M readings in time order, devices taking turns, small payloads. Variant B: 400k
 * readings in no time order, a few devices sending most of them, payloads of 300 random bytes.
 */
export function setS(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const devices = 20_000;
  const device = b ? `1 + ((g * 2654435761) % 4294967296) % 400 * ((g % 7) + 1) % ${devices}` : `1 + g % ${devices}`;
  const at = b
    ? `timestamptz '2025-01-01' + ((g * 48271) % 2147483647 % 8640000) * interval '1 second'`
    : `timestamptz '2025-01-01' + g * interval '5 seconds'`;
  // Random bytes do not compress: B's rows stay about 330 bytes wide.
  const payload = b ? `decode((SELECT string_agg(md5((g * 19 + j)::text), '') FROM generate_series(1, 19) j), 'hex')` : `decode(md5(g::text), 'hex')`;
  const oldest = b ? `timestamptz '2025-01-08'` : `timestamptz '2025-01-05'`;
  const setup = [
    `DROP TABLE IF EXISTS hs_daily, hs_readings, hs_devices CASCADE`,
    `CREATE TABLE hs_devices (id int PRIMARY KEY, site text NOT NULL, model text NOT NULL)`,
    `INSERT INTO hs_devices SELECT g, 'site-' || (g % 300), (ARRAY['t1','t2','p9'])[1 + g % 3] FROM generate_series(1, ${devices}) g`,
    `CREATE TABLE hs_readings (id bigint PRIMARY KEY, device_id int NOT NULL, reading_at timestamptz NOT NULL, value double precision NOT NULL,
       quality smallint NOT NULL, unit text, payload bytea NOT NULL)`,
    `INSERT INTO hs_readings
     SELECT g, ${device}, ${at}, ((g * 7919) % 100000) / 100.0 - 200, ((g * 31) % 4)::smallint,
            (ARRAY['C','kPa','%RH','ppm'])[1 + (g * 13) % 4], ${payload}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hs_readings_device_at ON hs_readings (device_id, reading_at)`,
    `CREATE INDEX hs_readings_at ON hs_readings (reading_at)`,
    `CREATE INDEX hs_readings_quality ON hs_readings (quality)`,
    `CREATE TABLE hs_daily (device_id int NOT NULL, day timestamptz NOT NULL, readings int NOT NULL, mean double precision NOT NULL, PRIMARY KEY (device_id, day))`,
    `VACUUM ANALYZE hs_devices, hs_readings, hs_daily`,
  ];
  const statements = [
    `ALTER TABLE hs_readings ADD CONSTRAINT hs_value_sane CHECK (value > -1000000 AND value < 1000000)`,
    `SETUP ALTER TABLE hs_readings ADD CONSTRAINT hs_readings_device_fk FOREIGN KEY (device_id) REFERENCES hs_devices (id) NOT VALID`,
    `ALTER TABLE hs_readings VALIDATE CONSTRAINT hs_readings_device_fk`,
    `UPDATE hs_readings SET quality = 0 WHERE quality = 3`,
    `UPDATE hs_readings SET value = value * 2 WHERE device_id BETWEEN 100 AND 2000`,
    `DELETE FROM hs_readings WHERE reading_at < ${oldest}`,
    `DELETE FROM hs_readings WHERE quality = 2 AND unit = 'kPa'`,
    `INSERT INTO hs_daily SELECT device_id, date_trunc('day', reading_at), count(*), avg(value) FROM hs_readings GROUP BY 1, 2`,
    `CREATE INDEX hs_s1 ON hs_readings (device_id, value)`,
    `DROP INDEX hs_s1`,
    `CREATE INDEX hs_s2 ON hs_readings USING brin (reading_at)`,
    `DROP INDEX hs_s2`,
    `CREATE INDEX hs_s3 ON hs_readings (unit text_pattern_ops)`,
    `DROP INDEX hs_s3`,
    `CREATE UNIQUE INDEX hs_s4 ON hs_readings (id, device_id)`,
    `DROP INDEX hs_s4`,
    `ALTER TABLE hs_readings ALTER COLUMN unit SET NOT NULL`,
    `ALTER TABLE hs_readings ALTER COLUMN quality TYPE int`,
    `ALTER TABLE hs_readings ADD COLUMN note text`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^INSERT INTO hs_daily/.test(sql) ? 'hs_daily' : 'hs_readings'),
  };
}
