import { describe, expect, it } from 'vitest';
import type { SchemaSnapshot } from '../introspection/schema-snapshot';
import { analyzeStatements } from './analyze-statements';
import { parseStatements } from './parse-statements';
import { buildSchemaIndex } from './schema-index';
import { shopSnapshot, tenantShopSnapshot } from './test-schema';

async function analyze(sql: string, snapshot: SchemaSnapshot) {
  return analyzeStatements(await parseStatements(sql), buildSchemaIndex(snapshot)).map((i) => i.report);
}

const unknown = (warnings: string[]) => warnings.filter((w) => w.startsWith('[unknown-table]'));

describe('name resolution under the snapshot search path', () => {
  it('resolves unqualified ALTER, FK, CREATE INDEX, DROP INDEX and DROP TABLE into the tenant schema', async () => {
    const r = await analyze(
      [
        'ALTER TABLE orders ADD COLUMN note text',
        'ALTER TABLE shipments ADD CONSTRAINT shipments_order_fk2 FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID',
        'CREATE INDEX orders_total_idx ON orders (total)',
        'DROP INDEX orders_customer_id_idx',
        'DROP TABLE shipments',
      ].join(';\n'),
      tenantShopSnapshot(),
    );
    expect(r.map((s) => s.table)).toEqual(['tenant_x.orders', 'tenant_x.shipments', 'tenant_x.orders', 'tenant_x.orders', 'tenant_x.shipments']);
    expect(r.flatMap((s) => unknown(s.warnings))).toEqual([]);
    expect(r[1]!.affected_tables.map((a) => a.table)).toEqual(['tenant_x.shipments', 'tenant_x.orders']);
    // The report keeps the SQL as written; the rollback names the schema.
    expect(r[0]!.sql).toBe('ALTER TABLE orders ADD COLUMN note text');
    expect(r[0]!.rollback.sql).toBe('ALTER TABLE tenant_x.orders DROP COLUMN note');
    expect(r[2]!.rollback.sql).toBe('DROP INDEX tenant_x.orders_total_idx');
    expect(r[3]!.rollback.sql).toMatch(/^CREATE INDEX orders_customer_id_idx ON tenant_x\.orders /);
    expect(r[4]!.rollback.sql).toMatch(/^CREATE TABLE tenant_x\.shipments /);
  });

  it('follows the cascade chain of the tenant schema (blast radius)', async () => {
    const [del] = await analyze('DELETE FROM customers WHERE id = 1', tenantShopSnapshot());
    expect(del!.affected_tables.map((a) => [a.table, a.impact])).toEqual([
      ['tenant_x.customers', 'direct'],
      ['tenant_x.orders', 'cascade'],
      ['tenant_x.order_items', 'cascade'],
      ['tenant_x.shipments', 'cascade'],
    ]);
  });

  it('creates in the first schema of the path and finds what earlier statements created there', async () => {
    const r = await analyze(
      [
        'CREATE TABLE refunds (id bigint PRIMARY KEY, order_id bigint REFERENCES orders(id), parent_id bigint REFERENCES refunds(id))',
        'CREATE INDEX refunds_order_id_idx ON refunds (order_id)',
        'ALTER TABLE refunds RENAME TO returns',
        'ALTER TABLE returns ADD COLUMN note text',
        "CREATE TYPE mood AS ENUM ('ok')",
        "ALTER TYPE order_status ADD VALUE 'lost'",
        'DROP TYPE order_status CASCADE',
      ].join(';\n'),
      tenantShopSnapshot(),
    );
    expect(r.map((s) => s.table)).toEqual(['tenant_x.refunds', 'tenant_x.refunds', 'tenant_x.refunds', 'tenant_x.returns', '', '', '']);
    expect(r[0]!.affected_tables.map((a) => a.table)).toEqual(['tenant_x.refunds', 'tenant_x.orders']);
    expect(r.flatMap((s) => unknown(s.warnings))).toEqual([]);
    expect(r[4]!.rollback.sql).toBe('DROP TYPE tenant_x.mood');
    expect(r[6]!.rollback.sql).toBe("CREATE TYPE tenant_x.order_status AS ENUM ('pending', 'paid', 'shipped')");
  });

  it('reports a table the tenant schema lacks under that schema, not public', async () => {
    const [s] = await analyze('ALTER TABLE invoices ADD COLUMN note text', tenantShopSnapshot());
    expect(s!.table).toBe('tenant_x.invoices');
    expect(unknown(s!.warnings)).toEqual([expect.stringContaining('tenant_x.invoices is not in the schema snapshot')]);
  });

  it('takes the first schema of the path that holds the name, and creates in the first one', async () => {
    // search_path = app, public: the shop lives in public, app is empty.
    const snapshot: SchemaSnapshot = { ...shopSnapshot(), schemas: ['app', 'public'], search_path: ['app', 'public'] };
    const r = await analyze(
      'ALTER TABLE orders ADD COLUMN note text; CREATE TABLE orders (id int); ALTER TABLE orders ADD COLUMN x int; DROP TABLE orders; ALTER TABLE orders ADD COLUMN y int',
      snapshot,
    );
    expect(r.map((s) => s.table)).toEqual(['public.orders', 'app.orders', 'app.orders', 'app.orders', 'public.orders']);
  });

  it('leaves default snapshots (no search path, or public only) and qualified names as before', async () => {
    const sql =
      'ALTER TABLE orders ADD COLUMN note text; CREATE INDEX i ON orders (note); DROP INDEX orders_customer_id_idx; ALTER TABLE tenant_x.orders ADD COLUMN z int';
    for (const snapshot of [shopSnapshot(), { ...shopSnapshot(), search_path: ['public'] }, { ...shopSnapshot(), search_path: [] }]) {
      const r = await analyze(sql, snapshot);
      expect(r.map((s) => s.table)).toEqual(['public.orders', 'public.orders', 'public.orders', 'tenant_x.orders']);
      expect(r[1]!.rollback.sql).toBe('DROP INDEX i');
    }
    const [q] = await analyze('ALTER TABLE public.orders ADD COLUMN note text', tenantShopSnapshot());
    expect(q!.table).toBe('public.orders');
  });
});
