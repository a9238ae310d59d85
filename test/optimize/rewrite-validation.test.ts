import { loadLiveCatalog } from '@dbops/core/optimization';
import { PlanSession } from '@dbops/core/optimization';
import { rankRewrites } from '@dbops/core/optimization';
import type { RewriteRule } from '@dbops/core/optimization';
import { checkStatement } from '@dbops/core/optimization';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedShop } from '../support/optimize';
import { createScratchDatabase } from '../support/scratch-database';

/** The ranker on a real database with rules that produce broken, costlier and better rewrites. */
let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let client: pg.Client;

beforeAll(async () => {
  db = await createScratchDatabase('optrank');
  await seedShop(db.url);
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
}, 180_000);
afterAll(async () => {
  await client?.end();
  await db?.drop();
});

const fixed =
  (rule: string, ...sqls: string[]): RewriteRule =>
  async () =>
    sqls.map((rewritten_sql) => ({ rule, rewritten_sql, explanation: rule }));

it('drops rewrites that do not parse, do not plan or cost more, and ranks the rest by cost', async () => {
  const sql = `SELECT * FROM orders WHERE customer_id = 5`;
  const checked = await checkStatement(sql);
  const session = new PlanSession(client, 170000, 5000);
  const base = await session.planCost(sql, 0);
  const ctx = {
    sql,
    stmt: checked.stmt,
    kind: checked.kind,
    paramCount: 0,
    catalog: await loadLiveCatalog(client, [{ schema: 'public', name: 'orders' }]),
    documents: [],
  };
  const ranked = await rankRewrites(session, ctx, base, [
    { name: 'broken', rule: fixed('broken', 'SELEC * FROM orders') },
    { name: 'unplannable', rule: fixed('unplannable', 'SELECT * FROM orders WHERE no_such_column = 5') },
    { name: 'costlier', rule: fixed('costlier', 'SELECT * FROM orders o1 CROSS JOIN orders o2 WHERE o1.customer_id = 5') },
    {
      name: 'throws',
      rule: async () => {
        throw new Error('boom');
      },
    },
    { name: 'good', rule: fixed('good', 'SELECT * FROM orders WHERE customer_id = 5 LIMIT 10', 'SELECT * FROM orders WHERE customer_id = 5 LIMIT 1') },
  ]);
  expect(ranked.dropped.map((d) => d.rule)).toEqual(['broken', 'unplannable', 'costlier', 'throws']);
  expect(ranked.dropped[0]!.reason).toMatch(/^does not parse/);
  expect(ranked.dropped[1]!.reason).toMatch(/^does not plan: column "no_such_column" does not exist/);
  expect(ranked.dropped[2]!.reason).toMatch(/^no lower estimated cost/);
  expect(ranked.alternatives.map((a) => [a.rank, a.rewritten_sql])).toEqual([
    [1, 'SELECT * FROM orders WHERE customer_id = 5 LIMIT 1'],
    [2, 'SELECT * FROM orders WHERE customer_id = 5 LIMIT 10'],
  ]);
  // The session is usable after the failures: each plan ran in its own rolled-back transaction.
  expect(await session.planCost(sql, 0)).toBe(base);
}, 120_000);
