import { describe, expect, it } from 'vitest';
import { parseStatements } from './parse-statements';
import { buildSchemaIndex } from './schema-index';
import { statementFacts } from './statement-facts';
import { shopSnapshot } from './test-schema';

const facts = async (sql: string) => {
  const schema = buildSchemaIndex(shopSnapshot());
  return (await parseStatements(sql)).map((p) => statementFacts(p, schema));
};

describe('statementFacts lock model (AlterTableGetLockLevel)', () => {
  it.each([
    ['ALTER TABLE orders ADD COLUMN n text', 'ALTER_TABLE_ADD_COLUMN', 'ACCESS EXCLUSIVE', 'catalog'],
    ["ALTER TABLE orders ADD COLUMN n text DEFAULT 'x'", 'ALTER_TABLE_ADD_COLUMN', 'ACCESS EXCLUSIVE', 'catalog'],
    ['ALTER TABLE orders ADD COLUMN n float8 DEFAULT random()', 'ALTER_TABLE_ADD_COLUMN', 'ACCESS EXCLUSIVE', 'rewrite'],
    ['ALTER TABLE orders ADD COLUMN n bigint GENERATED ALWAYS AS IDENTITY', 'ALTER_TABLE_ADD_COLUMN', 'ACCESS EXCLUSIVE', 'rewrite'],
    ['ALTER TABLE orders ADD COLUMN n numeric GENERATED ALWAYS AS (total * 2) STORED', 'ALTER_TABLE_ADD_COLUMN', 'ACCESS EXCLUSIVE', 'rewrite'],
    ['ALTER TABLE order_items ALTER COLUMN quantity TYPE bigint', 'ALTER_TABLE_ALTER_COLUMN_TYPE', 'ACCESS EXCLUSIVE', 'rewrite'],
    ['ALTER TABLE customers ALTER COLUMN name TYPE varchar(200)', 'ALTER_TABLE_ALTER_COLUMN_TYPE', 'ACCESS EXCLUSIVE', 'catalog'],
    ['ALTER TABLE customers ALTER COLUMN name TYPE text', 'ALTER_TABLE_ALTER_COLUMN_TYPE', 'ACCESS EXCLUSIVE', 'catalog'],
    ['ALTER TABLE orders ALTER COLUMN total SET NOT NULL', 'ALTER_TABLE_SET_NOT_NULL', 'ACCESS EXCLUSIVE', 'scan'],
    ['ALTER TABLE orders ADD CONSTRAINT c CHECK (total > 0)', 'ALTER_TABLE_ADD_CHECK_CONSTRAINT', 'ACCESS EXCLUSIVE', 'scan'],
    ['ALTER TABLE orders ADD CONSTRAINT c CHECK (total > 0) NOT VALID', 'ALTER_TABLE_ADD_CHECK_CONSTRAINT', 'ACCESS EXCLUSIVE', 'catalog'],
    ['ALTER TABLE shipments ADD CONSTRAINT f FOREIGN KEY (order_id) REFERENCES orders(id)', 'ALTER_TABLE_ADD_FOREIGN_KEY', 'SHARE ROW EXCLUSIVE', 'scan'],
    ['ALTER TABLE shipments VALIDATE CONSTRAINT f', 'ALTER_TABLE_VALIDATE_CONSTRAINT', 'SHARE UPDATE EXCLUSIVE', 'scan'],
    ['ALTER TABLE orders DROP CONSTRAINT c', 'ALTER_TABLE_DROP_CONSTRAINT', 'ACCESS EXCLUSIVE', 'catalog'],
    ['ALTER TABLE orders ALTER COLUMN total SET STATISTICS 500', 'ALTER_TABLE_SET_STATISTICS', 'SHARE UPDATE EXCLUSIVE', 'catalog'],
    ['ALTER TABLE orders DISABLE TRIGGER ALL', 'ALTER_TABLE_DISABLE_TRIG_ALL', 'SHARE ROW EXCLUSIVE', 'catalog'],
    ['CREATE INDEX i ON orders (total)', 'CREATE_INDEX', 'SHARE', 'index_build'],
    ['CREATE UNIQUE INDEX CONCURRENTLY i ON orders (total)', 'CREATE_UNIQUE_INDEX_CONCURRENTLY', 'SHARE UPDATE EXCLUSIVE', 'index_build'],
    ['DROP INDEX orders_customer_id_idx', 'DROP_INDEX', 'ACCESS EXCLUSIVE', 'catalog'],
    ['DROP TABLE shipments', 'DROP_TABLE', 'ACCESS EXCLUSIVE', 'catalog'],
    ['TRUNCATE events', 'TRUNCATE', 'ACCESS EXCLUSIVE', 'catalog'],
    ['UPDATE orders SET total = 0 WHERE id = 1', 'UPDATE', 'ROW EXCLUSIVE', 'data'],
    ['VACUUM FULL orders', 'VACUUM_FULL', 'ACCESS EXCLUSIVE', 'rewrite'],
    ['REFRESH MATERIALIZED VIEW CONCURRENTLY mv', 'REFRESH_MATERIALIZED_VIEW_CONCURRENTLY', 'EXCLUSIVE', 'rewrite'],
    ['LOCK TABLE orders IN SHARE MODE', 'LOCK_TABLE', 'SHARE', 'catalog'],
    ['CREATE TRIGGER t BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION f()', 'CREATE_TRIGGER', 'SHARE ROW EXCLUSIVE', 'catalog'],
  ])('%s -> %s, %s, %s', async (sql, type, lock, effect) => {
    const [f] = await facts(sql);
    expect([f!.statement_type, f!.lock_type, f!.effect]).toEqual([type, lock, effect]);
  });

  it('takes the strongest lock of several subcommands and locks the referenced table of a new FK', async () => {
    const [f] = await facts('ALTER TABLE shipments ALTER COLUMN carrier SET STATISTICS 100, ADD CONSTRAINT f FOREIGN KEY (order_id) REFERENCES orders(id)');
    expect(f!.statement_type).toBe('ALTER_TABLE');
    expect(f!.lock_type).toBe('SHARE ROW EXCLUSIVE');
    expect(f!.locks).toEqual([
      { table: 'public.shipments', mode: 'SHARE ROW EXCLUSIVE' },
      { table: 'public.orders', mode: 'SHARE ROW EXCLUSIVE' },
    ]);
  });

  it('takes VALIDATE CONSTRAINT of a foreign key as a validation against its parent (ROW SHARE there), and of a CHECK as a scan alone', async () => {
    const [fk, check] = await facts(
      'ALTER TABLE shipments VALIDATE CONSTRAINT shipments_order_id_fkey; ALTER TABLE products VALIDATE CONSTRAINT products_price_check',
    );
    expect(fk!.fk_targets).toEqual(['public.orders']);
    expect(fk!.locks).toEqual([
      { table: 'public.shipments', mode: 'SHARE UPDATE EXCLUSIVE' },
      { table: 'public.orders', mode: 'ROW SHARE' },
    ]);
    expect(check!.fk_targets).toEqual([]);
    expect(check!.locks).toEqual([{ table: 'public.products', mode: 'SHARE UPDATE EXCLUSIVE' }]);
  });

  it('takes a type change PostgreSQL makes without a rewrite as a scan when a CHECK reads the column (it checks it again on every row)', async () => {
    const [widened, other] = await facts('ALTER TABLE products ALTER COLUMN price TYPE numeric(12,2); ALTER TABLE products ALTER COLUMN sku TYPE varchar');
    expect(widened!.effect).toBe('scan');
    expect(widened!.effect_reason).toMatch(/binary coercible \(no rewrite\), but PostgreSQL checks products_price_check again against every row/);
    // Text to varchar without a length: no rewrite, and no CHECK reads sku.
    expect(other!.effect).toBe('catalog');
  });

  it('marks statements that cannot run in a transaction block', async () => {
    const fs = await facts(
      'CREATE INDEX CONCURRENTLY i ON orders (total); DROP INDEX CONCURRENTLY i; REINDEX INDEX CONCURRENTLY i; VACUUM orders; ALTER SYSTEM SET work_mem = 1; ALTER TABLE m DETACH PARTITION p CONCURRENTLY; CREATE INDEX j ON orders (total)',
    );
    expect(fs.map((f) => !!f.non_transactional)).toEqual([true, true, true, true, true, true, false]);
  });
});
