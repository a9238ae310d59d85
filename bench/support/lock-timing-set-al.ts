import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AL for `bench/lock-timing.ts` (issue #32), written and committed after AK ran, on
 * session 25's final model, with no change between its commit and its run. Shapes no earlier set
 * or calibration table has:
 * - warehouse stock movements keyed by a bigint in booking order, a product referenced by a text
 *   key (a sku of twelve characters; ON UPDATE CASCADE), a warehouse in smallint, a signed
 *   quantity, a kind in char(1), a lot number in varchar(24) unique within its warehouse, a
 *   booking time, a reference to a purchase order on some rows; products keyed by their sku with
 *   a category; indexes on product and time, on the purchase order (partial), and the unique lot
 *   besides the key;
 * - statements: a foreign key on the sku validated (text keys looked up), a CHECK calling
 *   length() on the lot, an UPDATE ... FROM products of one category (a join), an UPDATE of one
 *   product's sku cascading into its movements, a DELETE ... USING products of discontinued ones,
 *   a DELETE of a quarter's reversals, an INSERT ... SELECT of a monthly stock summary (two keys
 *   and a sum), an index on the sku with text_pattern_ops, a unique index on warehouse and lot
 *   built CONCURRENTLY, an index on the signed quantity's absolute value, the quantity widened to
 *   bigint, the kind's default set and a column dropped.
 * Variant A: 1M movements in booking order, 20,000 products taking turns. Variant B: 350k in no
 * heap order, a fiftieth of the products moving most, purchase orders on half the rows, at
 * fillfactor 90.
 */
export function setAL(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const products = 20_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const product = b ? `(CASE WHEN ${k} % 10 < 6 THEN 1 + (${k} * 13) % 400 ELSE 1 + (${k} * 31) % ${products} END)` : `(1 + ${k} % ${products})`;
  const sku = (p: string) => `'SKU-' || lpad((${p})::text, 8, '0')`;
  const booked = `timestamptz '2023-01-01' + (${k} * 63072000.0 / ${n}) * interval '1 second'`;
  const po = b ? `CASE WHEN ${k} % 2 = 0 THEN 'PO' || (${k} / 40) END` : `CASE WHEN ${k} % 12 = 0 THEN 'PO' || (${k} / 40) END`;
  const setup = [
    `DROP TABLE IF EXISTS hal_movements, hal_products, hal_monthly CASCADE`,
    `CREATE TABLE hal_products (sku text PRIMARY KEY, category text NOT NULL, discontinued boolean NOT NULL)`,
    `INSERT INTO hal_products SELECT ${sku('g')}, (ARRAY['tools', 'garden', 'kitchen', 'toys', 'paint', 'lighting', 'storage', 'bath'])[1 + g % 8], g % 97 = 0
     FROM generate_series(1, ${products}) g`,
    `CREATE TABLE hal_movements (id bigint PRIMARY KEY, sku text NOT NULL, warehouse smallint NOT NULL, qty int NOT NULL, kind char(1) NOT NULL,
       lot_no varchar(24) NOT NULL, booked_at timestamptz NOT NULL, po_ref text)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO hal_movements
     SELECT ${k}, ${sku(product)}, 1 + ${k} % 12, CASE WHEN ${k} % 3 = 0 THEN -(1 + ${k} % 40) ELSE 1 + (${k} * 7) % 200 END,
            (ARRAY['R', 'S', 'S', 'T', 'S', 'A', 'R', 'V'])[1 + (${k} * 5) % 8], 'L' || lpad((${k} / 12)::text, 9, '0') || '-' || ${k} % 12, ${booked}, ${po}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hal_movements_sku_time ON hal_movements (sku, booked_at)`,
    `CREATE INDEX hal_movements_po ON hal_movements (po_ref) WHERE po_ref IS NOT NULL`,
    `CREATE INDEX hal_movements_lot ON hal_movements (warehouse, lot_no)`,
    `CREATE TABLE hal_monthly (sku text NOT NULL, month timestamptz NOT NULL, net bigint NOT NULL, PRIMARY KEY (sku, month))`,
    `VACUUM ANALYZE hal_products, hal_movements`,
  ];
  const statements = [
    `SETUP ALTER TABLE hal_movements ADD CONSTRAINT hal_movements_sku_fk FOREIGN KEY (sku) REFERENCES hal_products (sku) ON UPDATE CASCADE NOT VALID`,
    `ALTER TABLE hal_movements VALIDATE CONSTRAINT hal_movements_sku_fk`,
    `ALTER TABLE hal_movements ADD CONSTRAINT hal_lot_ok CHECK (length(lot_no) BETWEEN 4 AND 24)`,
    `UPDATE hal_movements m SET qty = m.qty * 2 FROM hal_products p WHERE p.sku = m.sku AND p.category = 'paint' AND m.kind = 'R'`,
    `UPDATE hal_products SET sku = 'SKU-X0000077' WHERE sku = 'SKU-00000077'`,
    `DELETE FROM hal_movements m USING hal_products p WHERE p.sku = m.sku AND p.discontinued AND m.booked_at < timestamptz '2023-07-01'`,
    `DELETE FROM hal_movements WHERE kind = 'V' AND booked_at >= timestamptz '2024-01-01' AND booked_at < timestamptz '2024-04-01'`,
    `INSERT INTO hal_monthly SELECT sku, date_trunc('month', booked_at), sum(qty) FROM hal_movements GROUP BY 1, 2`,
    `CREATE INDEX hal_c1 ON hal_movements (sku text_pattern_ops)`,
    `DROP INDEX hal_c1`,
    `CREATE UNIQUE INDEX CONCURRENTLY hal_c2 ON hal_movements (warehouse, lot_no)`,
    `DROP INDEX hal_c2`,
    `CREATE INDEX hal_c3 ON hal_movements (abs(qty))`,
    `DROP INDEX hal_c3`,
    `ALTER TABLE hal_movements ALTER COLUMN qty TYPE bigint`,
    `ALTER TABLE hal_movements ALTER COLUMN kind SET DEFAULT 'S'`,
    `ALTER TABLE hal_movements DROP COLUMN po_ref`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO hal_monthly ') ? 'hal_monthly' : sql.startsWith('UPDATE hal_products ') ? 'hal_products' : 'hal_movements'),
  };
}
