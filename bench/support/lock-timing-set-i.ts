import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set I for `bench/lock-timing.ts` (issue #32), written and committed at the end of the
 * fifth round, after every change of that round, and run once on the model as the round left it.
 * Shapes no earlier set or calibration table has:
 * - stock movements keyed by an identity, `timestamp without time zone`, a numeric quantity
 *   under a CHECK, a varchar(100) reference, a BEFORE UPDATE trigger that only raises on a
 *   negative stock (no write), and warehouses and products as parents;
 * - statements: a CASE in SET over a third of the rows, a range DELETE by date through its
 *   index, a DELETE with `IN (subquery)` of many keys, an UPDATE joining two tables in FROM, a
 *   default of now() (catalog only), a foreign key added on the large table, an index on
 *   lower(ref), a unique index built CONCURRENTLY, varchar(100) to text (catalog only), int to
 *   bigint of a column two indexes read, SET NOT NULL after a large UPDATE, and an INSERT ...
 *   SELECT of a fifth of the table.
 * Variant A: 800k movements, short references. Variant B: 300k movements with 400-byte notes,
 * dates clustered in one month, most movements in two warehouses.
 */
export function setI(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const products = 20_000;
  const warehouse = b ? `CASE WHEN g % 10 < 8 THEN 1 + g % 2 ELSE 1 + g % 40 END` : `1 + g % 40`;
  const at = b ? `timestamp '2024-03-01' + ((g * 37) % ${n}) * interval '8 seconds'` : `timestamp '2023-01-01' + g * interval '40 seconds'`;
  const setup = [
    `DROP TABLE IF EXISTS hi_moves, hi_products, hi_warehouses CASCADE`,
    `CREATE TABLE hi_warehouses (id int PRIMARY KEY, region text NOT NULL, active boolean NOT NULL)`,
    `INSERT INTO hi_warehouses SELECT g, (ARRAY['north','south','east','west'])[1 + g % 4], g % 7 <> 0 FROM generate_series(1, 40) g`,
    `CREATE TABLE hi_products (id int PRIMARY KEY, sku varchar(30) NOT NULL, discontinued boolean NOT NULL)`,
    `INSERT INTO hi_products SELECT g, 'SKU-' || g, g % 25 = 0 FROM generate_series(1, ${products}) g`,
    `CREATE TABLE hi_moves (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, product_id int NOT NULL, warehouse_id int NOT NULL REFERENCES hi_warehouses (id),
       at timestamp NOT NULL, qty numeric(10, 2) NOT NULL CHECK (qty > -100000), kind varchar(12) NOT NULL, ref varchar(100), note text)`,
    `INSERT INTO hi_moves (product_id, warehouse_id, at, qty, kind, ref, note)
     SELECT 1 + (g * 7) % ${products}, ${warehouse}, ${at}, ((g * 13) % 2000 - 500) / 4.0, (ARRAY['in','out','adjust','transfer'])[1 + g % 4],
            'PO-' || (g * 3) % 100000, ${b ? `'moved ' || repeat(chr(97 + (g % 26)::int), 400)` : 'NULL'}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hi_moves_at ON hi_moves (at)`,
    `CREATE INDEX hi_moves_product ON hi_moves (product_id, warehouse_id)`,
    `CREATE OR REPLACE FUNCTION hi_guard() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN IF NEW.qty < -100000 THEN RAISE EXCEPTION 'stock too low'; END IF; RETURN NEW; END$$`,
    `CREATE TRIGGER hi_moves_guard BEFORE UPDATE ON hi_moves FOR EACH ROW EXECUTE FUNCTION hi_guard()`,
    `VACUUM ANALYZE hi_warehouses, hi_products, hi_moves`,
  ];
  const cutoff = b
    ? `timestamp '2024-03-01' + interval '${Math.round(n * 8 * 0.1)} seconds'`
    : `timestamp '2023-01-01' + interval '${Math.round(n * 40 * 0.1)} seconds'`;
  const statements = [
    `UPDATE hi_moves SET kind = CASE WHEN qty < 0 THEN 'out' ELSE 'in' END WHERE kind = 'adjust' OR kind = 'transfer' AND qty > 100`,
    `DELETE FROM hi_moves WHERE at < ${cutoff}`,
    `DELETE FROM hi_moves WHERE product_id IN (SELECT id FROM hi_products WHERE discontinued)`,
    `UPDATE hi_moves m SET ref = 'CLOSED' FROM hi_warehouses w, hi_products p WHERE w.id = m.warehouse_id AND p.id = m.product_id AND NOT w.active AND p.id % 10 = 0`,
    `ALTER TABLE hi_moves ADD COLUMN recorded_at timestamptz DEFAULT now()`,
    `ALTER TABLE hi_moves ADD CONSTRAINT hi_moves_product_fk FOREIGN KEY (product_id) REFERENCES hi_products (id)`,
    `CREATE INDEX hi_i1 ON hi_moves (lower(ref))`,
    `DROP INDEX hi_i1`,
    `CREATE UNIQUE INDEX CONCURRENTLY hi_i2 ON hi_moves (id, at)`,
    `DROP INDEX hi_i2`,
    `ALTER TABLE hi_moves ALTER COLUMN ref TYPE text`,
    `UPDATE hi_moves SET ref = coalesce(ref, 'NONE') WHERE id % 3 = 0`,
    `ALTER TABLE hi_moves ALTER COLUMN ref SET NOT NULL`,
    `ALTER TABLE hi_moves ALTER COLUMN product_id TYPE bigint`,
    `INSERT INTO hi_moves (product_id, warehouse_id, at, qty, kind, ref) SELECT product_id, warehouse_id, at + interval '1 year', -qty, kind, ref FROM hi_moves WHERE id % 5 = 1`,
  ];
  return {
    setup,
    statements,
    tableOf: () => 'hi_moves',
  };
}
