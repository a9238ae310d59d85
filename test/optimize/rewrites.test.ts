import type { Alternative } from '@dbops/core/optimization';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { optimize, seedShop } from '../support/optimize';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime;
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let key: string;
let conn: string;

beforeAll(async () => {
  t = await startTestRuntime();
  db = await createScratchDatabase('optrw');
  await seedShop(db.url);
  await sql(db.url, `CREATE INDEX ON customers (email); CREATE INDEX ON orders (customer_id); CREATE INDEX ON orders (created_at); ANALYZE`);
  // A small work_mem keeps NOT IN from using a hashed subplan, as on a large table.
  await sql(db.url, `ALTER DATABASE ${db.name} SET work_mem = '64kB'`);
  key = await t.apiKey('rw-alice');
  conn = (await registerConnection(t, 'rw-alice', db.url)).id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const alternatives = async (statement: string): Promise<Alternative[]> => {
  const res = await optimize(t, key, conn, statement);
  expect(res.status, res.text).toBe(200);
  return res.body.alternatives;
};

/** The "(before -> after)" pair of an estimated_improvement. */
const costs = (a: Alternative): [number, number] => {
  const m = /\(([\d,.]+) -> ([\d,.]+)\)$/.exec(a.estimated_improvement);
  if (!m) throw new Error(`no cost pair in ${a.estimated_improvement}`);
  return [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))];
};

const planCost = async (statement: string): Promise<number> =>
  (await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Total Cost': number } }> }>(db.url, `EXPLAIN (FORMAT JSON) ${statement}`))[0]!['QUERY PLAN'][0]!.Plan[
    'Total Cost'
  ];

describe('rewrites', { timeout: 120_000 }, () => {
  it('NOT IN -> NOT EXISTS when both columns are NOT NULL, with the same result', async () => {
    const q = `SELECT c.id FROM customers c WHERE c.id < 300 AND c.id NOT IN (SELECT o.customer_id FROM orders o WHERE o.status = 'cancelled')`;
    const [a] = await alternatives(q);
    expect(a?.rewritten_sql).toBe(
      `SELECT c.id FROM customers AS c WHERE c.id < 300 AND NOT (EXISTS (SELECT 1 FROM orders AS o WHERE (o.status = 'cancelled' AND o.customer_id = c.id)))`,
    );
    expect(a!.estimated_improvement).toMatch(/^about [\d,.]+x lower estimated cost \([\d,.]+ -> [\d,.]+\)$/);
    expect(await sql(db.url, `${a!.rewritten_sql} ORDER BY 1`)).toEqual(await sql(db.url, `${q} ORDER BY 1`));
  });

  it('NOT IN over a nullable column is left alone', async () => {
    const list = await alternatives(`SELECT c.id FROM customers c WHERE c.id NOT IN (SELECT e.customer_id FROM events e)`);
    expect(list.filter((a) => a.rewritten_sql.includes('NOT EXISTS'))).toEqual([]);
  });

  it('OFFSET -> keyset on a unique sort key, with a $n for the last seen key', async () => {
    const list = await alternatives(`SELECT * FROM orders ORDER BY id LIMIT 20 OFFSET 50000`);
    expect(list[0]?.rewritten_sql).toBe('SELECT * FROM orders WHERE orders.id > $1 ORDER BY id LIMIT 20');
    expect(list[0]!.explanation).toMatch(/\$1 = last row's id/);
    const params = await alternatives(`SELECT * FROM orders WHERE customer_id = $1 ORDER BY id DESC LIMIT 20 OFFSET 400`);
    expect(params.map((a) => a.rewritten_sql)).toContain('SELECT * FROM orders WHERE customer_id = $1 AND orders.id < $2 ORDER BY id DESC LIMIT 20');
  });

  it('OFFSET over a non-unique sort key is left alone', async () => {
    const list = await alternatives(`SELECT * FROM orders ORDER BY created_at LIMIT 20 OFFSET 50000`);
    expect(list.filter((a) => !a.rewritten_sql.includes('OFFSET'))).toEqual([]);
  });

  it('OR across columns of two tables -> disjoint UNION ALL branches, same rows', async () => {
    const q = `SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = 5 OR c.email = 'user9@example.com'`;
    const [a] = await alternatives(q);
    expect(a?.rewritten_sql).toBe(
      `SELECT o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id WHERE o.id = 5 UNION ALL SELECT o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id WHERE c.email = 'user9@example.com' AND NOT (COALESCE(o.id = 5, false))`,
    );
    const [before, after] = costs(a!);
    expect(after).toBeLessThan(before);
    expect(await sql(db.url, `SELECT * FROM (${a!.rewritten_sql}) x ORDER BY 1`)).toEqual(await sql(db.url, `${q} ORDER BY 1`));
  });

  it('non-sargable date(col) = D becomes a range the index serves', async () => {
    const q = `SELECT id FROM orders WHERE date(created_at) = '2024-02-01'`;
    const [a] = await alternatives(q);
    expect(a?.rewritten_sql).toBe(`SELECT id FROM orders WHERE created_at >= '2024-02-01'::date AND created_at < ('2024-02-01'::date + 1)`);
    expect(costs(a!)[1]).toBeLessThan(costs(a!)[0] / 5);
    expect(await sql(db.url, `${a!.rewritten_sql} ORDER BY 1`)).toEqual(await sql(db.url, `${q} ORDER BY 1`));
  });

  it('non-sargable col + k = c becomes col = c - k', async () => {
    const [a] = await alternatives(`SELECT * FROM orders WHERE id + 1 = 100`);
    expect(a?.rewritten_sql).toBe('SELECT * FROM orders WHERE id = (100 - 1)');
  });

  it('count(*) > 0 -> EXISTS', async () => {
    const q = `SELECT c.id FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.id AND o.status = 'pending') > 0`;
    const [a] = await alternatives(q);
    expect(a?.rewritten_sql).toBe(
      `SELECT c.id FROM customers AS c WHERE EXISTS (SELECT 1 FROM orders AS o WHERE o.customer_id = c.id AND o.status = 'pending')`,
    );
    expect(await sql(db.url, `${a!.rewritten_sql} ORDER BY 1`)).toEqual(await sql(db.url, `${q} ORDER BY 1`));
  });

  it('correlated aggregate subquery -> grouped LEFT JOIN with count defaulting to 0', async () => {
    const q = `SELECT c.id, (SELECT count(*) FROM orders o WHERE o.customer_id = c.id AND o.status = 'pending') AS pending FROM customers c`;
    const list = await alternatives(q);
    const a = list.find((x) => x.rewritten_sql.includes('LEFT JOIN'));
    expect(a?.rewritten_sql).toContain('COALESCE(dbops_s1.v, 0) AS pending');
    expect(await sql(db.url, `${a!.rewritten_sql} ORDER BY 1`)).toEqual(await sql(db.url, `${q} ORDER BY 1`));
  });

  it('ranks alternatives by measured cost, best first, each one plannable', async () => {
    const q = `SELECT * FROM orders WHERE qty + 1 = 3 ORDER BY id LIMIT 20 OFFSET 5000`;
    const list = await alternatives(q);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.map((a) => a.rank)).toEqual(list.map((_, i) => i + 1));
    const after = list.map((a) => costs(a)[1]);
    expect([...after].sort((x, y) => x - y)).toEqual(after);
    for (const a of list) {
      expect(a.original_sql).toBe(q);
      expect(costs(a)[0]).toBeCloseTo(await planCost(q), 0);
      expect(costs(a)[1]).toBeCloseTo(await planCost(a.rewritten_sql.replace(/\$\d+/g, '0')), -1);
    }
  });

  it('proposes nothing for a query that is already fine', async () => {
    expect(await alternatives(`SELECT * FROM orders WHERE id = 5`)).toEqual([]);
  });
});
