import type { IndexRecommendation } from '@dbops/core/optimization';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { optimize, seedShop } from '../support/optimize';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/** Index rules on PostgreSQL 17 without HypoPG: candidates are estimated and marked unverified. */
let t: TestRuntime;
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let nl: Awaited<ReturnType<typeof createScratchDatabase>>;
let key: string;
let conn: string;
let nlConn: string;

beforeAll(async () => {
  t = await startTestRuntime();
  db = await createScratchDatabase('optidx');
  nl = await createScratchDatabase('optnl');
  await Promise.all([seedShop(db.url), seedShop(nl.url)]);
  // Only nested loops on this one, so the inner-sequential-scan rule has a plan to read.
  await sql(nl.url, `ALTER DATABASE ${nl.name} SET enable_hashjoin = off`);
  await sql(nl.url, `ALTER DATABASE ${nl.name} SET enable_mergejoin = off`);
  key = await t.apiKey('idx-alice');
  conn = (await registerConnection(t, 'idx-alice', db.url)).id;
  nlConn = (await registerConnection(t, 'idx-alice', nl.url)).id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
  await nl?.drop();
});

const recs = async (statement: string, c = conn, analyze = false): Promise<IndexRecommendation[]> => {
  const res = await optimize(t, key, c, statement, { analyze });
  expect(res.status, res.text).toBe(200);
  return res.body.index_recommendations;
};
const find = (list: IndexRecommendation[], table: string, columns: string[]) =>
  list.find((r) => r.table_name === table && JSON.stringify(r.columns) === JSON.stringify(columns));

describe('rule_based recommendations without HypoPG', { timeout: 120_000 }, () => {
  it('seq scan whose filter removes most rows: equality columns first, then the range column', async () => {
    const list = await recs(`SELECT * FROM orders WHERE created_at > '2024-03-01' AND created_at < '2024-03-02' AND status = 'pending'`);
    const r = find(list, 'orders', ['status', 'created_at']);
    expect(r, JSON.stringify(list)).toBeDefined();
    expect(r!.detection_method).toBe('rule_based');
    expect(r!.create_sql).toBe('CREATE INDEX CONCURRENTLY idx_orders_status_created_at ON public.orders USING btree (status, created_at)');
    expect(r!.index_type).toBe('btree');
    expect(r!.reason).toMatch(/Sequential scan of orders keeps about/);
    expect(r!.estimated_storage_impact).toMatch(/^about [\d.]+ (kB|MB) \(estimated from 60,000 rows.*unverified\)$/);
    expect(r!.write_overhead_warning).toMatch(/pg_stat_user_tables records [\d,]+ row writes/);
    expect(r!.benefits.join(' ')).toMatch(/unverified/);
    expect(r!.validated).toBe(false);
    expect(r!.cost_after).toBeNull();
  });

  it('uses rows removed by filter when analyzed', async () => {
    const list = await recs(`SELECT * FROM orders WHERE qty = 2 AND status = 'pending'`, conn, true);
    expect(find(list, 'orders', ['qty', 'status']) ?? find(list, 'orders', ['status', 'qty'])).toBeDefined();
  });

  it('does not recommend for a filter that keeps most rows', async () => {
    const list = await recs(`SELECT * FROM orders WHERE status = 'shipped'`);
    expect(list.filter((r) => r.detection_method === 'rule_based')).toEqual([]);
  });

  it('IS NULL predicate becomes a partial index', async () => {
    const list = await recs(`SELECT * FROM orders WHERE shipped_at IS NULL AND customer_id = 42`);
    const r = find(list, 'orders', ['customer_id']);
    expect(r?.create_sql).toBe('CREATE INDEX CONCURRENTLY idx_orders_customer_id_partial ON public.orders USING btree (customer_id) WHERE shipped_at IS NULL');
    expect(r?.index_type).toBe('btree (partial)');
  });

  it('lower(col) = ... becomes an expression index', async () => {
    const list = await recs(`SELECT * FROM customers WHERE lower(email) = 'user5@example.com'`);
    const r = find(list, 'customers', ['lower(email)']);
    expect(r?.create_sql).toBe('CREATE INDEX CONCURRENTLY idx_customers_lower_email ON public.customers USING btree ((lower(email)))');
    expect(r?.index_type).toBe('btree (expression)');
  });

  it('sort feeding a LIMIT: equality columns, then the ORDER BY columns with their direction', async () => {
    const list = await recs(`SELECT * FROM orders WHERE customer_id = 7 ORDER BY created_at DESC LIMIT 10`);
    const r = find(list, 'orders', ['customer_id', 'created_at DESC']);
    expect(r?.create_sql).toContain('(customer_id, created_at DESC)');
    // The shorter (customer_id) candidate of the filter rule is served by this one.
    expect(find(list, 'orders', ['customer_id'])).toBeUndefined();
  });

  it('sort spilling to disk is detected when analyzed', async () => {
    await sql(db.url, `ALTER DATABASE ${db.name} SET work_mem = '64kB'`);
    try {
      const res = await optimize(t, key, conn, `SELECT * FROM orders ORDER BY created_at`, { analyze: true });
      expect(res.body.execution_plan.raw_plan_text).toMatch(/external merge/);
      expect(res.body.index_recommendations.find((r) => r.reason.includes('spills'))?.columns).toEqual(['created_at']);
    } finally {
      await sql(db.url, `ALTER DATABASE ${db.name} RESET work_mem`);
    }
  });

  it('join key without an index when the other side is small', async () => {
    const list = await recs(`SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.email = 'user5@example.com'`);
    expect(find(list, 'customers', ['email'])).toBeDefined();
    const r = find(list, 'orders', ['customer_id']);
    expect(r?.reason).toMatch(/Hash Join reads all 60,000 rows of orders/);
  });

  it('foreign key without an index used by the query', async () => {
    const list = await recs(`SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.region = 'north' AND c.vip`);
    const r = find(list, 'orders', ['customer_id']);
    expect(r?.benefits.join(' ')).toMatch(/Faster DELETE and key UPDATE on public\.customers/);
  });

  it('inner sequential scan of a nested loop', async () => {
    const list = await recs(`SELECT c.name, e.kind FROM customers c JOIN events e ON e.customer_id = c.id WHERE c.email = 'user5@example.com'`, nlConn);
    const r = find(list, 'events', ['customer_id']);
    expect(r?.reason, JSON.stringify(list)).toMatch(/Nested loop scans all of events/);
  });

  it('skips a candidate an existing index already covers with its leading columns', async () => {
    await sql(db.url, `CREATE INDEX orders_status_created ON orders (status, created_at, qty)`);
    try {
      const list = await recs(`SELECT * FROM orders WHERE status = 'pending' AND created_at > now()`);
      expect(list.filter((r) => r.table_name === 'orders')).toEqual([]);
    } finally {
      await sql(db.url, `DROP INDEX orders_status_created`);
    }
  });
});

describe('llm_suggested (offline pattern suggester)', { timeout: 120_000 }, () => {
  it('proposes the composite index for filter plus ORDER BY, unverified without HypoPG', async () => {
    const list = await recs(`SELECT id FROM orders WHERE status = 'pending' ORDER BY created_at`);
    const r = find(list, 'orders', ['status', 'created_at']);
    expect(r?.detection_method).toBe('llm_suggested');
    expect(r?.validated).toBe(false);
  });
});
