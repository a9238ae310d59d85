import type { IndexRecommendation } from '@dbops/core/optimization';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { hypopgUnavailableReason, startHypopgServer, type HypopgServer } from '../support/hypopg-server';
import { optimize, seedShop } from '../support/optimize';
import { sql, withDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/**
 * The same rules on Debian's PostgreSQL 15 with HypoPG: every candidate is checked with a
 * hypothetical index, so costs are real and useless candidates are dropped. Also covers
 * generic plans on a server older than 16 (PREPARE + force_generic_plan).
 */
const reason = hypopgUnavailableReason();
if (reason) console.warn(`[optimize] HypoPG tests skipped: ${reason}`);

describe.skipIf(reason !== null)('with HypoPG on PostgreSQL 15', { timeout: 120_000 }, () => {
  let server: HypopgServer | null;
  let t: TestRuntime;
  let url: string;
  let key: string;
  let conn: string;

  beforeAll(async () => {
    server = await startHypopgServer();
    if (!server) throw new Error('HypoPG server did not start');
    const withPassword = server.url.replace('postgres@', 'postgres:unused@');
    await sql(withPassword, 'CREATE DATABASE shop');
    url = withDatabase(withPassword, 'shop');
    await seedShop(url);
    t = await startTestRuntime();
    key = await t.apiKey('hypo-alice');
    conn = (await registerConnection(t, 'hypo-alice', url)).id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  const recs = async (statement: string): Promise<IndexRecommendation[]> => {
    const res = await optimize(t, key, conn, statement);
    expect(res.status, res.text).toBe(200);
    return res.body.index_recommendations;
  };

  it('validates a rule_based candidate with a hypothetical index and reports real costs and size', async () => {
    const list = await recs(`SELECT * FROM orders WHERE status = 'pending' AND created_at > '2024-03-01'`);
    const r = list.find((x) => JSON.stringify(x.columns) === '["status","created_at"]');
    expect(r, JSON.stringify(list)).toBeDefined();
    expect(r!.validated).toBe(true);
    expect(r!.validation_method).toBe('hypopg');
    expect(r!.cost_after!).toBeLessThan(r!.cost_before / 2);
    expect(r!.estimated_storage_impact).toMatch(/^about [\d.]+ (kB|MB) \(HypoPG estimate\)$/);
    expect(r!.benefits.join(' ')).toMatch(/Verified with a hypothetical index \(HypoPG\): about [\d.,]+x lower estimated cost/);
    expect(r!.create_sql).toMatch(/^CREATE INDEX CONCURRENTLY /);
  });

  it('validates partial and expression indexes', async () => {
    const partial = await recs(`SELECT * FROM orders WHERE shipped_at IS NULL AND customer_id = 42`);
    expect(partial.find((r) => r.index_type === 'btree (partial)')?.validated).toBe(true);
    const expr = await recs(`SELECT * FROM customers WHERE lower(email) = 'user5@example.com'`);
    expect(expr.find((r) => r.columns[0] === 'lower(email)')?.validated).toBe(true);
  });

  it('sort feeding a LIMIT and join keys are verified too', async () => {
    const sorted = await recs(`SELECT * FROM orders WHERE customer_id = 7 ORDER BY created_at DESC LIMIT 10`);
    expect(sorted.find((r) => JSON.stringify(r.columns) === '["customer_id","created_at DESC"]')?.validated).toBe(true);
    const joined = await recs(`SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.email = 'user5@example.com'`);
    expect(
      joined
        .filter((r) => r.validated)
        .map((r) => r.table_name)
        .sort(),
    ).toEqual(['customers', 'orders']);
  });

  it('drops suggestions that do not lower the cost (kept, unverified, without HypoPG)', async () => {
    // qty > 1 keeps 80% of the rows: the offline suggester proposes (qty), the planner does not want it.
    const list = await recs(`SELECT * FROM orders WHERE qty > 1`);
    expect(list).toEqual([]);
  });

  it('leaves nothing behind: the extension is created only inside the rolled-back transaction', async () => {
    await recs(`SELECT * FROM orders WHERE status = 'pending'`);
    expect(await sql(url, `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'hypopg'`)).toEqual([{ n: 0 }]);
    expect(await sql(url, `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'orders'`)).toEqual([{ n: 1 }]);
  });

  it('plans $n parameters generically on a server without EXPLAIN (GENERIC_PLAN)', async () => {
    const res = await optimize(t, key, conn, `SELECT * FROM orders WHERE customer_id = $1 AND status = $2`, { analyze: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.execution_plan.analyzed).toBe(false);
    expect(res.body.execution_plan.raw_plan_text).toMatch(/\$1/);
    expect(res.body.index_recommendations.find((r) => r.columns.includes('customer_id'))?.validated).toBe(true);
  });

  it('keeps unverified candidates when HypoPG is switched off', async () => {
    const off = await startTestRuntime({ env: { DBOPS_OPTIMIZE_HYPOPG: 'off' } });
    try {
      const k = await off.apiKey('hypo-off');
      const c = (await registerConnection(off, 'hypo-off', url)).id;
      const res = await optimize(off, k, c, `SELECT * FROM orders WHERE qty > 1`);
      expect(res.body.index_recommendations.map((r) => [r.columns, r.validated, r.detection_method])).toEqual([[['qty'], false, 'llm_suggested']]);
    } finally {
      await off.close();
    }
  });
});
