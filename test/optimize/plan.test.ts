import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { nodeTypes, optimize, seedShop } from '../support/optimize';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime;
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let key: string;
let conn: string;

beforeAll(async () => {
  t = await startTestRuntime({ env: { DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS: '4000' } });
  db = await createScratchDatabase('optplan');
  await seedShop(db.url);
  key = await t.apiKey('plan-alice');
  conn = (await registerConnection(t, 'plan-alice', db.url)).id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const count = async (table: string): Promise<number> => Number((await sql<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${table}`))[0]!.n);

describe('execution plan', { timeout: 120_000 }, () => {
  it('answers the bare result with the spec plan node and the text EXPLAIN', async () => {
    const res = await optimize(t, key, conn, `SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'pending'`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-remaining')).toMatch(/^\d+\.\d{4}$/);
    expect(Object.keys(res.body).sort()).toEqual(['alternatives', 'connection_id', 'context_used', 'execution_plan', 'index_recommendations', 'original_sql']);
    expect(res.body.connection_id).toBe(conn);
    expect(res.body.context_used).toBe(false);
    const plan = res.body.execution_plan;
    expect(plan.analyzed).toBe(false);
    expect(plan.total_cost).toBe(plan.root.total_cost);
    expect(plan.raw_plan_text).toMatch(/Seq Scan on public\.orders o\s+\(cost=/);
    expect(nodeTypes(plan.root)).toEqual(expect.arrayContaining(['Hash Join', 'Seq Scan']));
    const scan = JSON.stringify(plan.root).includes('"relation_name":"orders"');
    expect(scan).toBe(true);
    for (const k of ['node_type', 'relation_name', 'total_cost', 'plan_rows', 'plan_width', 'children']) expect(plan.root).toHaveProperty(k);
    expect(plan.root).not.toHaveProperty('actual_total_time');
    expect(JSON.stringify(plan.root)).toContain(`"filter":"(o.status = 'pending'::text)"`);
  });

  it('analyze=true fills real timings from EXPLAIN ANALYZE', async () => {
    const res = await optimize(t, key, conn, `SELECT count(*) FROM orders WHERE qty = 3`, { analyze: true });
    expect(res.status).toBe(200);
    const root = res.body.execution_plan.root;
    expect(res.body.execution_plan.analyzed).toBe(true);
    expect(root.actual_loops).toBe(1);
    expect(root.actual_rows).toBe(1);
    expect(typeof root.actual_total_time).toBe('number');
    expect(typeof root.actual_startup_time).toBe('number');
    expect(res.body.execution_plan.raw_plan_text).toMatch(/actual time=/);
    const scan = root.children.find((c) => c.node_type.includes('Scan')) ?? root.children[0]!.children[0]!;
    expect(scan).toBeDefined();
  });

  it.each([
    ['DELETE', `DELETE FROM orders WHERE status = 'cancelled'`, 'orders'],
    ['UPDATE', `UPDATE customers SET name = 'x'`, 'customers'],
    ['INSERT', `INSERT INTO blocked SELECT g FROM generate_series(100000, 100999) g`, 'blocked'],
    ['MERGE', `MERGE INTO blocked b USING (SELECT 200000 AS id) s ON b.customer_id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id)`, 'blocked'],
  ])('%s with analyze=true is only EXPLAINed (strict guardrail), says so, and changes nothing', async (kind, statement, table) => {
    const before = await count(table);
    const sample = await sql(db.url, `SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS h FROM ${table} t`);
    const res = await optimize(t, key, conn, statement, { analyze: true });
    expect(res.status).toBe(200);
    expect(res.body.execution_plan.analyzed).toBe(false);
    expect(res.body.execution_plan.root.actual_loops).toBeUndefined();
    expect(res.body.analyze_skipped).toMatchObject({ code: 'GUARDRAIL_VIOLATION', statement_kind: 'dml', statement: kind });
    expect(await count(table)).toBe(before);
    expect(await sql(db.url, `SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS h FROM ${table} t`)).toEqual(sample);
  });

  it('plans $n parameters generically and never executes them', async () => {
    const res = await optimize(t, key, conn, `SELECT * FROM orders WHERE customer_id = $1 AND created_at > $2`, { analyze: true });
    expect(res.status).toBe(200);
    expect(res.body.execution_plan.analyzed).toBe(false);
    expect(res.body.analyze_skipped).toMatchObject({ code: 'HAS_PARAMETERS' });
    expect(res.body.execution_plan.raw_plan_text).toMatch(/\$1/);
    expect(res.body.index_recommendations.map((r) => r.columns)).toContainEqual(['customer_id', 'created_at']);
  });

  it('a VALUES list and TABLE are accepted', async () => {
    expect((await optimize(t, key, conn, `VALUES (1), (2)`)).status).toBe(200);
    expect((await optimize(t, key, conn, `TABLE blocked`)).status).toBe(200);
  });

  it('stops an analyzed run at the statement timeout (408 TIMEOUT)', async () => {
    const res = await optimize(t, key, conn, `SELECT pg_sleep(10)`, { analyze: true });
    expect(res.status).toBe(408);
    expect(res.body.error?.code).toBe('TIMEOUT');
  });
});

describe('refusals', { timeout: 120_000 }, () => {
  it.each([
    ['CREATE TABLE', `CREATE TABLE evil (a int)`],
    ['DROP', `DROP TABLE orders`],
    ['ALTER', `ALTER TABLE orders ADD COLUMN x int`],
    ['SELECT INTO', `SELECT * INTO evil FROM orders`],
    ['two statements', `SELECT 1; DELETE FROM orders`],
    ['EXPLAIN', `EXPLAIN SELECT 1`],
    ['COPY', `COPY orders TO STDOUT`],
  ])('%s is refused with 422 UNSUPPORTED_STATEMENT and nothing runs', async (_name, statement) => {
    const res = await optimize(t, key, conn, statement, { analyze: true });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error?.code).toBe('UNSUPPORTED_STATEMENT');
    expect(await sql(db.url, `SELECT to_regclass('evil') AS r`)).toEqual([{ r: null }]);
    expect(await count('orders')).toBe(60000);
  });

  it('a syntax error is 422 SQL_PARSE_ERROR', async () => {
    const res = await optimize(t, key, conn, `SELEC * FROM orders`);
    expect(res.status).toBe(422);
    expect(res.body.error?.code).toBe('SQL_PARSE_ERROR');
  });

  it('an unknown table is 400 SQL_ERROR with the server message', async () => {
    const res = await optimize(t, key, conn, `SELECT * FROM nope`);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('SQL_ERROR');
    expect(res.body.error?.message).toContain('relation "nope" does not exist');
    expect(res.text).not.toContain(db.url);
  });

  it('validates the body and the analyze flag (422 detail)', async () => {
    const missing = await t.request<{ detail: Array<{ loc: unknown[] }> }>('POST', `/connections/${conn}/queries/optimize`, { apiKey: key, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]!.loc).toEqual(['body', 'sql']);
    const bad = await t.request<{ detail: Array<{ loc: unknown[] }> }>('POST', `/connections/${conn}/queries/optimize?analyze=maybe`, {
      apiKey: key,
      body: { sql: 'SELECT 1' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]!.loc).toEqual(['query', 'analyze']);
  });

  it("another user's connection and an unknown id are 404", async () => {
    const bob = await t.apiKey('plan-bob');
    const other = await optimize(t, bob, conn, 'SELECT 1');
    expect(other.status).toBe(404);
    expect(other.body.error?.code).toBe('NOT_FOUND');
    const unknown = await optimize(t, key, '00000000-0000-4000-8000-000000000000', 'SELECT 1');
    expect(unknown.status).toBe(404);
  });

  it('requires credentials', async () => {
    const res = await t.request('POST', `/connections/${conn}/queries/optimize`, { body: { sql: 'SELECT 1' } });
    expect(res.status).toBe(401);
  });
});
