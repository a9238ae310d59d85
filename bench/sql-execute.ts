/**
 * POST /execute against raw `pg`, in one run:
 *  1. `SELECT 1` through /execute (caller human, and caller agent at strict) versus the same
 *     query on an already connected `pg` client: p50/p99 latency and requests/s, at 1 and 10
 *     concurrent connections; and, one by one, a key look-up whose agent guardrail asks the
 *     target's catalog (docs/sql-execution.md). The service runs in this process (startLocalRuntime); load comes
 *     from autocannon in a second process so the two do not share an event loop.
 *     GET /billing/balance runs alongside as the reference cost of the HTTP pipeline itself.
 *  2. Peak RSS growth of this (the service's) process while /execute reads a 5,000,000-row
 *     table with row_limit 10000, next to the same read of a 10,000-row table.
 *
 *   npx tsx --expose-gc bench/sql-execute.ts [--seconds 10] [--rows 5000000]
 */
import { startLocalRuntime } from '@dbops/local';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTargetServer } from '../test/support/target-server';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, rows: { type: 'string', default: '5000000' } } });
const seconds = Number(values.seconds);
const bigRows = Number(values.rows);

interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** autocannon in a child process (POST with `body`, GET without); prints its summary as JSON. */
function autocannonRun(url: string, headers: Record<string, string>, body: string | undefined, connections: number): Promise<LoadResult> {
  const script = `
    import autocannon from 'autocannon';
    const o = JSON.parse(process.env.AC_OPTS);
    autocannon(o, (err, r) => {
      if (err) { console.error(err); process.exit(1); }
      process.stdout.write(JSON.stringify({ requests: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx }));
    });`;
  const opts =
    body === undefined
      ? { url, method: 'GET', headers, connections, duration: seconds }
      : { url, method: 'POST', headers, body, connections, duration: seconds };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, AC_OPTS: JSON.stringify(opts) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`autocannon exited ${code}`))));
  });
}

/**
 * One client in a child process sending `count` requests back to back over one keep-alive
 * socket (node:http), timing each with performance.now(): sub-millisecond p50/p99, which
 * autocannon's whole-millisecond histogram cannot show at one connection.
 */
function sequentialRun(url: string, headers: Record<string, string>, body: string | undefined, count: number): Promise<LoadResult> {
  const script = `
    import http from 'node:http';
    const { url, headers, body, count } = JSON.parse(process.env.SEQ_OPTS);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const once = () => new Promise((resolve, reject) => {
      const req = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode < 300 ? resolve() : reject(new Error('HTTP ' + res.statusCode))));
      });
      req.on('error', reject);
      req.end(body);
    });
    for (let i = 0; i < 200; i++) await once();
    const lat = [];
    const started = performance.now();
    for (let i = 0; i < count; i++) { const t = performance.now(); await once(); lat.push(performance.now() - t); }
    const seconds = (performance.now() - started) / 1000;
    lat.sort((a, b) => a - b);
    const at = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
    process.stdout.write(JSON.stringify({ requests: count, rps: count / seconds, p50: at(50), p99: at(99), non2xx: 0 }));
    agent.destroy();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, SEQ_OPTS: JSON.stringify({ url, headers, body, count }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`sequential client exited ${code}`))));
  });
}

/** `count` queries (default SELECT 1) back to back on one connected client, each timed. */
async function rawPgSequential(url: string, count: number, query = 'SELECT 1'): Promise<LoadResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  for (let i = 0; i < 200; i++) await c.query(query);
  const lat: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await c.query(query);
    lat.push(performance.now() - t);
  }
  const seconds = (performance.now() - started) / 1000;
  await c.end();
  lat.sort((a, b) => a - b);
  return { requests: count, rps: count / seconds, p50: percentile(lat, 50), p99: percentile(lat, 99), non2xx: 0 };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** `connections` clients, each running SELECT 1 back to back for `seconds`. */
async function rawPg(url: string, connections: number): Promise<LoadResult> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await c.query('SELECT 1');
        latencies.push(performance.now() - t0);
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx: 0 };
}

/** A primary key on `small`, so the look-up query is an index scan. */
async function db2Index(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('ALTER TABLE small ADD PRIMARY KEY (id)');
  await c.end();
}

const fmt = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
const row = (name: string, c: number, r: LoadResult): string =>
  `| ${name} | ${c} | ${r.requests} | ${fmt(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.non2xx} |`;

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-exec-'));
const target = await startTargetServer();
const runtime = await startLocalRuntime({
  port: 0,
  inMemoryState: false, // on disk under DBOPS_HOME, as `npm start` keeps it
  env: { ...process.env, DBOPS_HOME: home, DBOPS_RATE_LIMIT: '100000000', DBOPS_LOG_LEVEL: 'error' },
});
try {
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS bench_exec');
  await admin.query('CREATE DATABASE bench_exec');
  await admin.end();
  const dbUrl = new URL(target.url);
  dbUrl.pathname = '/bench_exec';
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  const t0 = performance.now();
  await db.query(`CREATE TABLE big AS SELECT g AS id, md5(g::text) AS h, now() AS at FROM generate_series(1, ${bigRows}) g`);
  await db.query('CREATE TABLE small AS SELECT * FROM big LIMIT 10000');
  const fillSeconds = (performance.now() - t0) / 1000;
  const size = (await db.query<{ s: string }>("SELECT pg_size_pretty(pg_total_relation_size('big')) AS s")).rows[0]!.s;
  await db.end();

  const jwt = await runtime.issuer.sign('bench-exec');
  const call = (p: string, init: RequestInit) => fetch(`${runtime.baseUrl}${p}`, init);
  const key = (await (
    await call('/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    })
  ).json()) as { data: { key: string } };
  const headers = { 'x-api-key': key.data.key, 'content-type': 'application/json' };
  const conn = (await (
    await call('/connections', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench', db_type: 'postgresql_local', connection_string: `${dbUrl.toString()}?sslmode=disable` }),
    })
  ).json()) as { data: { id: string } };
  const connectionId = conn.data.id;
  // Enough credits for the whole run.
  await runtime.container.store.query('UPDATE users SET balance = 1000000 WHERE id = (SELECT user_id FROM connections WHERE id = $1)', [connectionId]);

  const exec = (body: Record<string, unknown>) => call('/execute', { method: 'POST', headers, body: JSON.stringify({ connection_id: connectionId, ...body }) });
  for (let i = 0; i < 50; i++) await (await exec({ sql: 'SELECT 1' })).text(); // warm up

  const url = `${runtime.baseUrl}/execute`;
  const human = JSON.stringify({ connection_id: connectionId, sql: 'SELECT 1' });
  const agent = JSON.stringify({ connection_id: connectionId, sql: 'SELECT 1', caller: 'agent', guardrail: 'strict' });
  const lines: string[] = [];
  // Overhead at one client, precisely: the same N requests timed one by one.
  const SEQ = 3000;
  const seqRaw = await rawPgSequential(dbUrl.toString(), SEQ);
  const seqFree = await sequentialRun(`${runtime.baseUrl}/billing/balance`, { 'x-api-key': headers['x-api-key'] }, undefined, SEQ);
  const seqHuman = await sequentialRun(url, headers, human, SEQ);
  const seqAgent = await sequentialRun(url, headers, agent, SEQ);
  // A statement that names a relation, an operator and a function: an agent's guardrail asks the
  // target's catalog what they are (probe function, dependency walk) before running it.
  const LOOKUP = 'SELECT h, lower(h) FROM small WHERE id = 42';
  await db2Index(dbUrl.toString());
  const seqRawLookup = await rawPgSequential(dbUrl.toString(), SEQ, LOOKUP);
  const seqHumanLookup = await sequentialRun(url, headers, JSON.stringify({ connection_id: connectionId, sql: LOOKUP }), SEQ);
  const seqAgentLookup = await sequentialRun(
    url,
    headers,
    JSON.stringify({ connection_id: connectionId, sql: LOOKUP, caller: 'agent', guardrail: 'strict' }),
    SEQ,
  );
  const seqLines = [
    row('raw pg, connected client, SELECT 1', 1, seqRaw),
    row('GET /billing/balance (free, reference)', 1, seqFree),
    row('POST /execute SELECT 1 (human)', 1, seqHuman),
    row('POST /execute SELECT 1 (agent, strict)', 1, seqAgent),
    row(`raw pg, connected client, ${LOOKUP}`, 1, seqRawLookup),
    row(`POST /execute ${LOOKUP} (human)`, 1, seqHumanLookup),
    row(`POST /execute ${LOOKUP} (agent, strict: catalog check)`, 1, seqAgentLookup),
  ];
  const overhead = [
    `p50 overhead of /execute over raw pg: human ${(seqHuman.p50 - seqRaw.p50).toFixed(2)} ms, agent strict ${(seqAgent.p50 - seqRaw.p50).toFixed(2)} ms (target <= 1 ms)`,
    `p50 overhead with a catalog look-up (${LOOKUP}): human ${(seqHumanLookup.p50 - seqRawLookup.p50).toFixed(2)} ms, agent strict ${(seqAgentLookup.p50 - seqRawLookup.p50).toFixed(2)} ms (target for the agent, its catalog verdict kept: <= 1.5 ms)`,
  ].join('\n');
  for (const c of [1, 10]) {
    lines.push(row('raw pg, connected client, SELECT 1', c, await rawPg(dbUrl.toString(), c)));
    // The same HTTP pipeline (gateway, authorizer, rate limit) without billing or database work.
    lines.push(
      row(
        'GET /billing/balance (free, reference)',
        c,
        await autocannonRun(`${runtime.baseUrl}/billing/balance`, { 'x-api-key': headers['x-api-key'] }, undefined, c),
      ),
    );
    lines.push(row('POST /execute SELECT 1 (human)', c, await autocannonRun(url, headers, human, c)));
    lines.push(row('POST /execute SELECT 1 (agent, strict)', c, await autocannonRun(url, headers, agent, c)));
  }

  // Memory: peak RSS over a baseline while reading, sampled every 5 ms.
  async function peakGrowth(sql: string, times: number): Promise<{ growth: number; ms: number; rows: number; truncated: boolean }> {
    gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const base = process.memoryUsage().rss;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    let last: { data: { row_count: number; truncated: boolean } } | undefined;
    for (let i = 0; i < times; i++) last = (await (await exec({ sql, row_limit: 10000 })).json()) as typeof last;
    const ms = (performance.now() - started) / times;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { growth: peak - base, ms, rows: last!.data.row_count, truncated: last!.data.truncated };
  }
  const small = await peakGrowth('SELECT * FROM small', 5);
  const big = await peakGrowth('SELECT * FROM big', 5);

  process.stdout.write(
    [
      `POST /execute vs raw pg, ${seconds} s per line, ${new Date().toISOString()}, gc ${gc ? 'exposed' : 'not exposed'}`,
      '',
      `Sequential, one client, ${SEQ} requests each, timed one by one (node:http keep-alive client in a child process):`,
      '',
      '| what | connections | requests | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|---|---|',
      ...seqLines,
      '',
      overhead,
      '',
      `Load, ${seconds} s per line (autocannon in a child process; whole-millisecond latency histogram):`,
      '',
      '| what | connections | requests | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|---|---|',
      ...lines,
      '',
      `Reading with row_limit 10000 (table big: ${bigRows} rows, ${size}, filled in ${fillSeconds.toFixed(0)} s); peak RSS growth of the service process over 5 requests:`,
      '',
      '| query | rows returned | truncated | ms per request | peak RSS growth MB |',
      '|---|---|---|---|---|',
      `| SELECT * FROM small (10,000 rows) | ${small.rows} | ${small.truncated} | ${small.ms.toFixed(0)} | ${mb(small.growth)} |`,
      `| SELECT * FROM big (${bigRows.toLocaleString('en-US')} rows) | ${big.rows} | ${big.truncated} | ${big.ms.toFixed(0)} | ${mb(big.growth)} |`,
      '',
    ].join('\n'),
  );
} finally {
  await runtime.close();
  await target.stop();
  await rm(home, { recursive: true, force: true });
}
