import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { getLatestSnapshot } from '@dbops/core/introspection';
import { connectAs, startProvisioningRuntime } from '../support/provisioning';
import type { TestRuntime } from '../support/test-runtime';

const SLOW = 180_000;

/**
 * A managed database is a schema plus a role whose search_path is that schema: its tables are
 * not in public, and its users write unqualified names. The analysis must resolve them there,
 * and the sandbox run them there, as PostgreSQL does on the tenant's own connection.
 */
describe('migration analysis of a managed database (tenant schema, role search_path)', () => {
  let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
  let t: TestRuntime;
  let key: string;
  let db: { connection_id: string; schema_name: string; connection_string: string };

  beforeAll(async () => {
    env = await startProvisioningRuntime();
    t = env.t;
    const jwt = await t.jwt('tenant-ana');
    key = await t.apiKey('tenant-ana');
    const created = await t.request('POST', '/provision', { jwt, body: { name: 'shop' } });
    expect(created.status, created.text).toBe(201);
    db = created.body.data;
    // Written the way a tenant writes them: unqualified, so they land in the tenant schema.
    const tenant = await connectAs(db.connection_string);
    try {
      await tenant.query(`
        CREATE TYPE order_status AS ENUM ('pending', 'paid');
        CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL);
        CREATE TABLE orders (id serial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE, status order_status NOT NULL DEFAULT 'pending', total numeric);
        CREATE INDEX orders_customer_id_idx ON orders (customer_id);
        INSERT INTO customers SELECT g, 'c' || g || '@example.com' FROM generate_series(1, 20) g;
        INSERT INTO orders (customer_id, total) SELECT 1 + g % 20, g FROM generate_series(1, 100) g;`);
    } finally {
      await tenant.end();
    }
    const intro = await t.request('POST', `/connections/${db.connection_id}/introspect`, { apiKey: key });
    expect(intro.status, intro.text).toBe(200);
    expect(intro.body.data.tables).toEqual(expect.arrayContaining([`${db.schema_name}.customers`, `${db.schema_name}.orders`]));
  }, SLOW);

  afterAll(async () => env?.close());

  it("records the role's search path in the snapshot", async () => {
    const store = t.runtime.container.store;
    const owner = (await store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [db.connection_id])).rows[0]!.user_id;
    expect((await getLatestSnapshot(store, owner, db.connection_id))?.search_path).toEqual([db.schema_name]);
  });

  it(
    'analyses an unqualified migration against the tenant schema, passes the sandbox and issues a token',
    async () => {
      const res = await t.request<AnalysisReport>('POST', `/connections/${db.connection_id}/migrations/analyze`, {
        apiKey: key,
        body: { sql: 'ALTER TABLE orders ADD COLUMN note text;\nCREATE INDEX orders_note_idx ON orders (note);\nDELETE FROM customers WHERE id = 1' },
      });
      expect(res.status, res.text).toBe(200);
      const r = res.body;
      const orders = `${db.schema_name}.orders`;
      expect(r.statements.map((s) => s.table)).toEqual([orders, orders, `${db.schema_name}.customers`]);
      expect(r.statements[2]!.affected_tables.map((a) => a.table)).toEqual([`${db.schema_name}.customers`, orders]);
      expect(r.warnings.filter((w) => w.includes('[unknown-table]'))).toEqual([]);
      expect(r.statements[0]!.rollback.sql).toBe(`ALTER TABLE ${orders} DROP COLUMN note`);
      expect(r.sandbox_result.migration_error).toBeNull();
      expect(r.sandbox_result.passed).toBe(true);
      expect(r.sandbox_result.validation_results.filter((v) => v.check === 'object_exists').map((v) => v.detail)).toEqual([
        `column ${orders}.note exists after statement 0 (ALTER_TABLE_ADD_COLUMN)`,
        `${db.schema_name}.orders_note_idx exists after statement 1 (CREATE_INDEX)`,
      ]);
      expect(typeof r.approval_token).toBe('string');
    },
    SLOW,
  );

  it(
    'still reports a table the tenant schema lacks, under the tenant schema',
    async () => {
      const res = await t.request<AnalysisReport>('POST', `/connections/${db.connection_id}/migrations/analyze`, {
        apiKey: key,
        body: { sql: 'ALTER TABLE invoices ADD COLUMN note text' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.warnings).toEqual(expect.arrayContaining([expect.stringContaining(`${db.schema_name}.invoices is not in the schema snapshot`)]));
      expect(res.body.sandbox_result.passed).toBe(false);
      expect(res.body.approval_token).toBeNull();
    },
    SLOW,
  );
});
