import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { shopSnapshot, tenantShopSnapshot } from '../test-schema';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { type SandboxOptions } from './run-sandbox';
import { SandboxImageCache } from './sandbox-cache';
import { closeSandboxSpare } from './sandbox-pool';
import { sandboxOnText } from '../../../../../test/support/sandbox-on-text';

const sandbox = (sql: string, snapshot: SchemaSnapshot = shopSnapshot(), options: SandboxOptions = {}) => sandboxOnText(snapshot, sql, options);

describe('runSandbox (PGlite)', () => {
  afterAll(closeSandboxSpare);

  it('clones the schema, inserts keyed synthetic rows and validates a passing migration', async () => {
    const r = await sandbox(
      'ALTER TABLE orders ADD COLUMN note text; CREATE INDEX CONCURRENTLY orders_note_idx ON orders (note); DELETE FROM customers WHERE id = 1',
    );
    expect(r).toMatchObject({ passed: true, migration_applied: true, migration_error: null, tables_created: 6, rows_inserted: 18 });
    expect(r.validation_results.map((v) => v.check)).toEqual([
      'schema_cloned',
      'synthetic_rows',
      'migration_applied',
      'object_exists',
      'object_exists',
      'row_counts_kept',
      'indexes_valid',
    ]);
    // The cascade delete is expected to change counts of the reached tables only.
    expect(r.validation_results.find((v) => v.check === 'row_counts_kept')!.detail).toMatch(/^2 table/);
  }, 120_000);

  it('reports, not refuses, row counts changed by code the statements do not show (a DO block, a trigger)', async () => {
    const counts = (r: Awaited<ReturnType<typeof sandbox>>) => r.validation_results.find((v) => v.check === 'row_counts_kept')!;
    // documenso's create_delete_account: a service account inserted from a DO block.
    const block = await sandbox(
      "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM customers WHERE email = 'deleted@example.com') THEN INSERT INTO customers (id, email) VALUES (-1, 'deleted@example.com'); END IF; END $$",
    );
    expect(block.passed).toBe(true);
    expect(counts(block)).toMatchObject({ passed: true });
    expect(counts(block).detail).toMatch(
      /^row counts changed: public\.customers \d+ -> \d+, by code the analysis does not see into \(statement 0 \(a DO block\)\)$/,
    );
    // An audit trigger: the INSERT names products, the trigger writes audit rows of its own.
    const trigger = await sandbox(
      `CREATE TABLE price_log (sku text, price numeric);
       CREATE FUNCTION log_price() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO price_log VALUES (NEW.sku, NEW.price); DELETE FROM order_items WHERE product_id = NEW.id; RETURN NEW; END $$;
       CREATE TRIGGER products_log AFTER UPDATE ON products FOR EACH ROW EXECUTE FUNCTION log_price();
       UPDATE products SET price = price + 1`,
    );
    expect(trigger.passed).toBe(true);
    expect(counts(trigger).detail).toMatch(
      /order_items \d+ -> \d+, by code the analysis does not see into \(statement 3 \(writes public\.products, which has triggers or rules\)\)/,
    );
  }, 120_000);

  it("refuses a write to a system catalog unless the target's role is a superuser (PGlite's own role is one)", async () => {
    const write = "UPDATE pg_index SET indisready = false WHERE indrelid = 'orders'::regclass; REINDEX TABLE orders";
    const refused = await sandbox(write);
    expect(refused.passed).toBe(false);
    expect(refused.migration_error).toMatch(/permission denied for table pg_index \(the target's role is not a superuser/);
    const superuser = await sandbox(write, { ...shopSnapshot(), role_superuser: true });
    expect(superuser.migration_error).toBeNull();
    expect(superuser.passed).toBe(true);
  }, 120_000);

  it('checks removed and renamed objects in one catalog query, in statement order', async () => {
    const r = await sandbox(
      'DROP INDEX orders_customer_id_idx; ALTER TABLE shipments DROP COLUMN carrier; ALTER TABLE products RENAME COLUMN sku TO code; CREATE TABLE audit (id int)',
    );
    expect(r.passed).toBe(true);
    expect(r.validation_results.filter((v) => v.check.startsWith('object_')).map((v) => [v.check, v.passed, v.detail])).toEqual([
      ['object_removed', true, 'public.orders_customer_id_idx is gone after statement 0 (DROP_INDEX)'],
      ['object_removed', true, 'column public.shipments.carrier is gone after statement 1 (ALTER_TABLE_DROP_COLUMN)'],
      ['object_exists', true, 'column public.products.code exists after statement 2 (RENAME_COLUMN)'],
      ['object_removed', true, 'column public.products.sku is gone after statement 2 (RENAME_COLUMN)'],
      ['object_exists', true, 'public.audit exists after statement 3 (CREATE_TABLE)'],
    ]);
  }, 120_000);

  it("follows an index renamed by ALTER INDEX and by ADD CONSTRAINT ... USING INDEX (a safe plan's swap)", async () => {
    const r = await sandbox(
      'CREATE INDEX orders_total_tmp ON orders (total); ALTER INDEX orders_total_tmp RENAME TO orders_total_idx; CREATE UNIQUE INDEX products_sku_tmp ON products (sku); ALTER TABLE products ADD CONSTRAINT products_sku_key UNIQUE USING INDEX products_sku_tmp',
    );
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    expect(r.validation_results.filter((v) => v.check.startsWith('object_')).map((v) => v.detail)).toEqual([
      'public.orders_total_tmp is gone after statement 1 (RENAME_INDEX)',
      'public.orders_total_idx exists after statement 1 (RENAME_INDEX)',
      'public.products_sku_tmp is gone after statement 3 (ALTER_TABLE_ADD_UNIQUE_CONSTRAINT)',
      'public.products_sku_key exists after statement 3 (ALTER_TABLE_ADD_UNIQUE_CONSTRAINT)',
    ]);
  }, 120_000);

  it('follows a table renamed after its column was (what earlier statements expect moves with it)', async () => {
    const r = await sandbox(
      'ALTER TABLE products RENAME sku TO code; ALTER TABLE products RENAME TO items; ALTER TABLE shipments ADD COLUMN note text; DROP TABLE shipments',
    );
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    expect(r.validation_results.filter((v) => v.check.startsWith('object_')).map((v) => v.detail)).toEqual([
      'column public.items.code exists after statement 0 (RENAME_COLUMN)',
      'column public.items.sku is gone after statement 0 (RENAME_COLUMN)',
      'public.items exists after statement 1 (RENAME_TABLE)',
      'public.shipments is gone after statement 3 (DROP_TABLE)',
    ]);
  }, 120_000);

  it('fails on a NOT NULL column without default on a populated table', async () => {
    const r = await sandbox('ALTER TABLE products ADD COLUMN weight int NOT NULL');
    expect(r.passed).toBe(false);
    expect(r.migration_applied).toBe(false);
    expect(r.migration_error).toMatch(/^Statement 0 \(ALTER_TABLE_ADD_COLUMN\) failed: .*contains null values/);
  }, 120_000);

  it('accepts a partitioned index left invalid by CREATE INDEX ... ON ONLY (as PostgreSQL does), and says so', async () => {
    // hatchet's v1_0_127: GIN indexes ON ONLY the parents, partitions indexed later. This and
    // every later migration of its chain were refused while the invalid parent index was there.
    const r = await sandbox(`
      CREATE TABLE audit (id bigint NOT NULL, at date NOT NULL, meta jsonb) PARTITION BY RANGE (at);
      CREATE TABLE audit_2026 PARTITION OF audit FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
      CREATE INDEX audit_meta_gin ON ONLY audit USING gin (meta jsonb_path_ops);`);
    expect(r.passed).toBe(true);
    expect(r.validation_results.find((v) => v.check === 'indexes_valid')).toMatchObject({
      passed: true,
      detail: expect.stringMatching(/^all indexes of tables are valid; partitioned index\(es\) not valid until .*: audit_meta_gin$/),
    });
  }, 120_000);

  it('fails on a type mismatch', async () => {
    const r = await sandbox("ALTER TABLE orders ALTER COLUMN total TYPE int USING 'x'");
    expect(r.passed).toBe(false);
    expect(r.migration_error).toMatch(/invalid input syntax for type integer/);
  }, 120_000);

  it("runs an unqualified migration in the tenant schema of a managed database's snapshot (search_path)", async () => {
    // The snapshot's definitions are unqualified too (REFERENCES customers, status order_status):
    // the clone needs the search path as much as the migration does. The second run starts from
    // the cached clone, a new session that must get the path again.
    const cache = new SandboxImageCache({ maxMemoryBytes: 64 * 1024 * 1024, maxDiskBytes: 0, dir: tmpdir() });
    const migration =
      "ALTER TABLE orders ADD COLUMN note text; CREATE INDEX orders_note_idx ON orders (note); CREATE TABLE refunds (id bigint PRIMARY KEY, order_id bigint REFERENCES orders(id)); INSERT INTO orders (id, customer_id, status) SELECT 99, id, 'paid'::order_status FROM customers LIMIT 1";
    for (const run of ['cloned', 'from the cache']) {
      const r = await sandbox(migration, tenantShopSnapshot(), { cache });
      expect(r.migration_error, run).toBeNull();
      expect(r, run).toMatchObject({ passed: true, migration_applied: true, tables_created: 6 });
      expect(r.validation_results.filter((v) => v.check.startsWith('object_')).map((v) => v.detail)).toEqual([
        'column tenant_x.orders.note exists after statement 0 (ALTER_TABLE_ADD_COLUMN)',
        'tenant_x.orders_note_idx exists after statement 1 (CREATE_INDEX)',
        'tenant_x.refunds exists after statement 2 (CREATE_TABLE)',
      ]);
    }
  }, 120_000);
});
