import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set V for `bench/lock-timing.ts` (issue #32, twelfth round), written and committed
 * before the round's model change, to be run once on the model the round ends with. Shapes no
 * earlier set or calibration table has:
 * - warehouse stock levels: a composite primary key (warehouse, sku), a quantity and a reserved
 *   count in int, a price in numeric, a last-counted time, a status in "char", a bin label in
 *   text; two indexes besides the key (the sku, a partial one on the rows below their reorder
 *   point) and a table of warehouses it references;
 * - statements: a CHECK on the quantities, a foreign key validated, three UPDATEs of columns no
 *   index reads (HOT where the pages have room: one on a few rows of every page, one on a range of
 *   warehouses, one on a third of the rows), an UPDATE of the indexed quantity, a DELETE of the
 *   discontinued rows, an index on the bin label, an index on two columns, SET NOT NULL, the
 *   reserved count's type changed to bigint (a rewrite) and a column added without a default.
 * Variant A: 1.2M rows, narrow, written in key order. Variant B: 400k rows with wide bin labels,
 * at fillfactor 90 (room on every page for HOT updates).
 */
export function setV(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const warehouses = 400;
  const perWarehouse = Math.ceil(n / warehouses);
  const label = b ? `'aisle-' || (g % 60) || '/rack-' || (g % 24) || '/shelf-' || (g % 9) || '/' || repeat('x', (40 + g % 30)::int)` : `'B' || (g % 500)`;
  const setup = [
    `DROP TABLE IF EXISTS hv_stock, hv_warehouses CASCADE`,
    `CREATE TABLE hv_warehouses (id int PRIMARY KEY, city text NOT NULL)`,
    `INSERT INTO hv_warehouses SELECT g, 'City ' || g FROM generate_series(1, ${warehouses}) g`,
    `CREATE TABLE hv_stock (warehouse_id int NOT NULL, sku bigint NOT NULL, qty int NOT NULL, reserved int NOT NULL, reorder_at int NOT NULL,
       price numeric(10, 2) NOT NULL, counted_at timestamptz NOT NULL, status "char" NOT NULL, bin text, PRIMARY KEY (warehouse_id, sku))${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO hv_stock
     SELECT 1 + (g - 1) / ${perWarehouse}, 100000 + (g * 7919) % 1000003, (g * 13) % 200, (g * 7) % 20, 10 + g % 15,
            ((g * 31) % 100000) / 100.0, timestamptz '2025-01-01' + (g % 86400) * interval '1 minute', (ARRAY['a','a','a','d','h'])[1 + g % 5]::"char", ${label}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hv_stock_sku ON hv_stock (sku)`,
    `CREATE INDEX hv_stock_low ON hv_stock (warehouse_id) WHERE qty < 15`,
    `VACUUM ANALYZE hv_warehouses, hv_stock`,
  ];
  const statements = [
    `ALTER TABLE hv_stock ADD CONSTRAINT hv_qty_sane CHECK (qty >= 0 AND reserved >= 0)`,
    `SETUP ALTER TABLE hv_stock ADD CONSTRAINT hv_stock_warehouse_fk FOREIGN KEY (warehouse_id) REFERENCES hv_warehouses (id) NOT VALID`,
    `ALTER TABLE hv_stock VALIDATE CONSTRAINT hv_stock_warehouse_fk`,
    `UPDATE hv_stock SET counted_at = counted_at + interval '1 day' WHERE sku % 50 = 7`,
    `UPDATE hv_stock SET reserved = 0 WHERE warehouse_id BETWEEN 10 AND 40`,
    `UPDATE hv_stock SET price = price * 1.02 WHERE status = 'h'`,
    `UPDATE hv_stock SET qty = qty + 5 WHERE qty < 15`,
    `DELETE FROM hv_stock WHERE status = 'd' AND warehouse_id > 380`,
    `CREATE INDEX hv_v1 ON hv_stock (bin)`,
    `DROP INDEX hv_v1`,
    `CREATE INDEX hv_v2 ON hv_stock (status, counted_at)`,
    `DROP INDEX hv_v2`,
    `ALTER TABLE hv_stock ALTER COLUMN bin SET NOT NULL`,
    `ALTER TABLE hv_stock ALTER COLUMN reserved TYPE bigint`,
    `ALTER TABLE hv_stock ADD COLUMN note text`,
  ];
  return { setup, statements, tableOf: () => 'hv_stock' };
}
