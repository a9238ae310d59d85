import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AG for `bench/lock-timing.ts` (issue #32), written and committed before a
 * nineteenth round's change (index entries by key order), which was tried and not shipped; run once
 * on the eighteenth round's model instead. Shapes no earlier set or calibration table has:
 * - shop orders keyed by uuids made from a hash (in no order), a customer, a status in text of five
 *   values, a total in numeric(12,2), a placing time, a shipping time NULL on two fifths of the
 *   rows, a note on some; three indexes besides the key (customer and time, a partial one on the
 *   new and paid orders, the shipping time); an archive table keyed by the same uuids;
 * - statements: a CHECK on the total, an UPDATE shipping old paid orders (its status in the
 *   partial index's predicate), an UPDATE of the total of recent orders (no indexed column), a
 *   DELETE of old cancelled orders, an INSERT copying old orders into the archive (a uuid key and
 *   one index there), an index on the total, a partial index on the lower-cased note, a unique
 *   index on customer and key built CONCURRENTLY, the status narrowed to varchar(20) (a rewrite),
 *   SET NOT NULL on the customer and a column added.
 * Variant A: 1M orders in placing order, customers taking turns. Variant B: 300k orders in no
 * order, a twentieth of the customers placing most, notes of about 250 bytes on a third of the
 * rows, at fillfactor 85.
 */
export function setAG(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const customers = 50_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const customer = b ? `CASE WHEN ${k} % 10 < 7 THEN 1 + (${k} * 13) % 2500 ELSE 1 + (${k} * 31) % ${customers} END` : `1 + ${k} % ${customers}`;
  const placed = `timestamptz '2023-01-01' + (${k} * 63072000.0 / ${n}) * interval '1 second'`;
  const status = `(ARRAY['new', 'paid', 'shipped', 'shipped', 'shipped', 'delivered', 'cancelled', 'delivered'])[1 + (${k} * 5) % 8]`;
  const note = b ? `CASE WHEN ${k} % 3 = 0 THEN 'Please ' || repeat(md5(${k}::text), 7) END` : `CASE WHEN ${k} % 25 = 0 THEN 'Leave at the door' END`;
  const setup = [
    `DROP TABLE IF EXISTS hag_orders, hag_archive CASCADE`,
    `CREATE TABLE hag_orders (id uuid PRIMARY KEY, customer_id int, status text NOT NULL, total numeric(12,2) NOT NULL, placed_at timestamptz NOT NULL,
       shipped_at timestamptz, note text)${b ? ' WITH (fillfactor = 85)' : ''}`,
    `INSERT INTO hag_orders
     SELECT md5('order' || ${k})::uuid, ${customer}, ${status}, round(((${k} * 7907) % 100000) / 100.0 + 1, 2), ${placed},
            CASE WHEN ${k} % 5 < 2 THEN NULL ELSE ${placed} + interval '2 days' END, ${note}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hag_orders_customer_time ON hag_orders (customer_id, placed_at)`,
    `CREATE INDEX hag_orders_open ON hag_orders (placed_at) WHERE status IN ('new', 'paid')`,
    `CREATE INDEX hag_orders_shipped ON hag_orders (shipped_at)`,
    `CREATE TABLE hag_archive (id uuid PRIMARY KEY, customer_id int, status text NOT NULL, total numeric(12,2) NOT NULL, placed_at timestamptz NOT NULL,
       shipped_at timestamptz, note text)`,
    `CREATE INDEX hag_archive_customer ON hag_archive (customer_id)`,
    `VACUUM ANALYZE hag_orders, hag_archive`,
  ];
  const statements = [
    `ALTER TABLE hag_orders ADD CONSTRAINT hag_total_ok CHECK (total >= 0)`,
    `UPDATE hag_orders SET status = 'shipped', shipped_at = placed_at + interval '3 days' WHERE status = 'paid' AND placed_at < timestamptz '2023-09-01'`,
    `UPDATE hag_orders SET total = round(total * 1.19, 2) WHERE placed_at >= timestamptz '2024-10-01'`,
    `DELETE FROM hag_orders WHERE status = 'cancelled' AND placed_at < timestamptz '2023-07-01'`,
    `INSERT INTO hag_archive SELECT * FROM hag_orders WHERE placed_at < timestamptz '2023-04-01'`,
    `CREATE INDEX hag_c1 ON hag_orders (total)`,
    `DROP INDEX hag_c1`,
    `CREATE INDEX hag_c2 ON hag_orders (lower(note)) WHERE note IS NOT NULL`,
    `DROP INDEX hag_c2`,
    `CREATE UNIQUE INDEX CONCURRENTLY hag_c3 ON hag_orders (customer_id, id)`,
    `DROP INDEX hag_c3`,
    `ALTER TABLE hag_orders ALTER COLUMN status TYPE varchar(20)`,
    `ALTER TABLE hag_orders ALTER COLUMN customer_id SET NOT NULL`,
    `ALTER TABLE hag_orders ADD COLUMN refunded_at timestamptz`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO hag_archive ') ? 'hag_archive' : 'hag_orders'),
  };
}
