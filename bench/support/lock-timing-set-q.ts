import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set Q for `bench/lock-timing.ts` (issue #32, seventh round), written and committed
 * before the round's first model change and run once on the model the round ends with. Shapes no
 * earlier set or calibration table has:
 * - bookings of a rental site: a bigint key, a property they reference (a small parent of 40k
 *   rows), a check-in timestamptz and a night count, a guest count in smallint, a status with a
 *   few values, a price in numeric(10,2), a currency char(3), a guest e-mail varchar, a nullable
 *   host uuid, text[] amenities, and three indexes besides the key;
 * - statements: a CHECK on a numeric range, a foreign key to the properties added in one step, a
 *   backfill UPDATE of the price on one status, an UPDATE whose WHERE is an expression on the key,
 *   a DELETE of old cancelled bookings, an INSERT ... SELECT into an archive with an index, an
 *   index on the nullable uuid, a GIN index on the array, a two-column index with a COLLATE "C"
 *   text key, a unique index over two columns, SET NOT NULL on the e-mail, a type change of the
 *   guest count (smallint to int: a rewrite rebuilding four indexes) and a column with a volatile
 *   default (a rewrite of the table as it then is).
 * Variant A: 1M bookings, short rows, statuses even. Variant B: 300k bookings with a note of
 * about 600 bytes, 80 % of them 'done', check-ins clustered on a few days.
 */
export function setQ(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const status = b
    ? `CASE WHEN g % 10 < 8 THEN 'done' WHEN g % 10 = 8 THEN 'cancelled' ELSE 'booked' END`
    : `(ARRAY['booked','done','cancelled','disputed'])[1 + g % 4]`;
  const checkIn = b
    ? `timestamptz '2024-03-01' + ((g * 31) % 20) * interval '1 day' + (g % 86400) * interval '1 second'`
    : `timestamptz '2022-01-01' + ((g * 7919) % 1000) * interval '1 day' + (g % 1440) * interval '1 minute'`;
  const note = b ? `repeat('late arrival, keys under the mat; ', 17) || g` : `NULL`;
  const properties = 40_000;
  const oldCancelled = b ? `timestamptz '2024-03-05'` : `timestamptz '2022-06-01'`;
  const setup = [
    `DROP TABLE IF EXISTS hq_archive, hq_bookings, hq_properties CASCADE`,
    `CREATE TABLE hq_properties (id int PRIMARY KEY, city text NOT NULL, beds smallint NOT NULL)`,
    `INSERT INTO hq_properties SELECT g, 'City ' || g % 500, (1 + g % 6)::smallint FROM generate_series(1, ${properties}) g`,
    `CREATE TABLE hq_bookings (id bigint PRIMARY KEY, property_id int NOT NULL, check_in timestamptz NOT NULL, nights int NOT NULL,
       guests smallint NOT NULL, status text NOT NULL, price numeric(10, 2) NOT NULL, currency char(3) NOT NULL, email varchar(120),
       host uuid, amenities text[] NOT NULL, note text)`,
    `INSERT INTO hq_bookings
     SELECT g, 1 + (g * 104729) % ${properties}, ${checkIn}, 1 + g % 14, (1 + g % 8)::smallint, ${status},
            round(((g * 7) % 90000) / 100.0 + 20, 2), (ARRAY['EUR','USD','GBP'])[1 + g % 3], 'guest' || g || '@mail.example',
            CASE WHEN g % 3 = 0 THEN NULL ELSE md5(g::text)::uuid END,
            CASE g % 4 WHEN 0 THEN ARRAY['wifi'] WHEN 1 THEN ARRAY['wifi','pool'] WHEN 2 THEN ARRAY['parking','wifi','kitchen'] ELSE ARRAY['pets'] END, ${note}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hq_bookings_property ON hq_bookings (property_id)`,
    `CREATE INDEX hq_bookings_status_in ON hq_bookings (status, check_in)`,
    `CREATE INDEX hq_bookings_guests ON hq_bookings (guests, nights)`,
    `CREATE TABLE hq_archive (id bigint PRIMARY KEY, property_id int NOT NULL, check_in timestamptz NOT NULL, price numeric(10, 2) NOT NULL)`,
    `CREATE INDEX hq_archive_property ON hq_archive (property_id)`,
    `VACUUM ANALYZE hq_properties, hq_bookings, hq_archive`,
  ];
  const statements = [
    `ALTER TABLE hq_bookings ADD CONSTRAINT hq_price_sane CHECK (price > 0 AND price < 10000)`,
    `ALTER TABLE hq_bookings ADD CONSTRAINT hq_bookings_property_fk FOREIGN KEY (property_id) REFERENCES hq_properties (id)`,
    `UPDATE hq_bookings SET price = price * 1.05 WHERE status = 'booked'`,
    `UPDATE hq_bookings SET currency = 'EUR' WHERE id % 9 = 4`,
    `DELETE FROM hq_bookings WHERE status = 'cancelled' AND check_in < ${oldCancelled}`,
    `INSERT INTO hq_archive SELECT id, property_id, check_in, price FROM hq_bookings WHERE status = 'done' AND nights > 7`,
    `CREATE INDEX hq_q1 ON hq_bookings (host)`,
    `DROP INDEX hq_q1`,
    `CREATE INDEX hq_q2 ON hq_bookings USING gin (amenities)`,
    `DROP INDEX hq_q2`,
    `CREATE INDEX hq_q3 ON hq_bookings (email COLLATE "C", check_in)`,
    `DROP INDEX hq_q3`,
    `CREATE UNIQUE INDEX hq_q4 ON hq_bookings (property_id, id)`,
    `DROP INDEX hq_q4`,
    `ALTER TABLE hq_bookings ALTER COLUMN email SET NOT NULL`,
    `ALTER TABLE hq_bookings ALTER COLUMN guests TYPE int`,
    `ALTER TABLE hq_bookings ADD COLUMN ref_code text DEFAULT md5(random()::text)`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^(ALTER TABLE|DELETE FROM|INSERT INTO) hq_archive/.test(sql) ? 'hq_archive' : 'hq_bookings'),
  };
}
