import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set O for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's last model change (btree builds sorted from a sample on the target) and run once on
 * the model as the round leaves it. Shapes no earlier set or calibration table has:
 * - stock items without a primary key (added by the set), a numeric price, an ICU-collated name,
 *   a text SKU, a bigint barcode in random order, a warehouse code, and stock counts referencing
 *   them;
 * - statements: a primary key added, a two-column UNIQUE constraint, a numeric index, an ICU text
 *   index, a bigint index in random order, a CHECK with LIKE, SET NOT NULL on two columns at
 *   once, a foreign key added NOT VALID then validated, an UPDATE with CASE over a range, a DELETE
 *   by an IN list, an INSERT ... SELECT DISTINCT, text to varchar(64), int to bigint.
 * Variant A: 800k items with short names. Variant B: 300k items with names of about 300 bytes
 * and prices clustered on a few values.
 */
export function setO(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const name = b ? `'Item ' || md5(g::text) || ' ' || repeat(chr(97 + (g % 26)::int), 260)` : `'Item ' || (g * 7919) % ${n}`;
  const price = b ? `(ARRAY[9.99, 19.99, 4.50, 99.00])[1 + g % 4]` : `((g * 104729) % 100000) / 100.0`;
  const setup = [
    `DROP TABLE IF EXISTS ho_counts, ho_stock CASCADE`,
    `CREATE TABLE ho_stock (id int NOT NULL, sku text NOT NULL, name text COLLATE "und-x-icu", price numeric(10, 2), barcode bigint NOT NULL, warehouse text, qty int)`,
    `INSERT INTO ho_stock SELECT g, 'SKU-' || lpad(g::text, 8, '0'), ${name}, ${price}, (g::bigint * 2654435761) % 9999999967, 'W' || (g % 12), (g * 13) % 500
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE TABLE ho_counts (id int PRIMARY KEY, stock_id int NOT NULL, counted int NOT NULL)`,
    `INSERT INTO ho_counts SELECT g, 1 + (g * 7) % ${n}, g % 300 FROM generate_series(1, ${Math.round(n / 2)}) g`,
    `VACUUM ANALYZE ho_stock, ho_counts`,
  ];
  const statements = [
    `ALTER TABLE ho_stock ADD PRIMARY KEY (id)`,
    `ALTER TABLE ho_stock ADD CONSTRAINT ho_stock_wh_sku UNIQUE (warehouse, sku)`,
    `CREATE INDEX ho_o1 ON ho_stock (price)`,
    `DROP INDEX ho_o1`,
    `CREATE INDEX ho_o2 ON ho_stock (name)`,
    `DROP INDEX ho_o2`,
    `CREATE INDEX ho_o3 ON ho_stock (barcode)`,
    `DROP INDEX ho_o3`,
    `ALTER TABLE ho_stock ADD CONSTRAINT ho_sku_shape CHECK (sku LIKE 'SKU-%')`,
    `ALTER TABLE ho_stock ALTER COLUMN warehouse SET NOT NULL, ALTER COLUMN qty SET NOT NULL`,
    `ALTER TABLE ho_counts ADD CONSTRAINT ho_counts_stock FOREIGN KEY (stock_id) REFERENCES ho_stock (id) NOT VALID`,
    `ALTER TABLE ho_counts VALIDATE CONSTRAINT ho_counts_stock`,
    `UPDATE ho_stock SET qty = CASE WHEN qty > 400 THEN 400 ELSE qty + 1 END WHERE id BETWEEN ${Math.round(n * 0.2)} AND ${Math.round(n * 0.5)}`,
    `DELETE FROM ho_counts WHERE counted IN (0, 1, 2, 3)`,
    `INSERT INTO ho_counts SELECT DISTINCT ON (stock_id) stock_id + ${n * 10}, stock_id, counted FROM ho_counts WHERE counted > 250`,
    `ALTER TABLE ho_stock ALTER COLUMN sku TYPE varchar(64)`,
    `ALTER TABLE ho_stock ALTER COLUMN qty TYPE bigint`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^(ALTER TABLE|DELETE FROM|INSERT INTO) ho_counts/.test(sql) ? 'ho_counts' : 'ho_stock'),
  };
}
