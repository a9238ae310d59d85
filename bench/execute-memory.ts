/**
 * Memory of the service under concurrent large /execute results (issue #23: three concurrent
 * 300 MB results took the local service from 0.66 GB to 2.7 GB RSS).
 *
 * A table of `--rows` rows of about 30 KB each (10,000 rows: 300 MB) is read with
 * `SELECT * FROM wide` and row_limit 10000 by 1, 3 and 6 concurrent requests, against the
 * service in this process: peak RSS growth over the idle baseline (sampled every 20 ms), wall
 * time, answer sizes and why rows were cut. The same reads then run against a second runtime
 * whose byte budget is set out of the way (`DBOPS_EXECUTE_MAX_RESULT_BYTES` = 2 GiB), at the
 * concurrencies given by `--uncapped`, as the before/after comparison in one run.
 *
 *   npx tsx --expose-gc bench/execute-memory.ts [--rows 10000] [--concurrency 1,3,6] [--uncapped 1,3]
 */
import { type LocalRuntime, startLocalRuntime } from '@dbops/local';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTargetServer } from '../test/support/target-server';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '1,3,6' }, uncapped: { type: 'string', default: '1,3' } },
});
const rows = Number(values.rows);
const list = (s: string): number[] => s.split(',').filter(Boolean).map(Number);

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

const target = await startTargetServer();
const admin = new pg.Client({ connectionString: target.url });
await admin.connect();
await admin.query('DROP DATABASE IF EXISTS bench_exec_mem');
await admin.query('CREATE DATABASE bench_exec_mem');
await admin.end();
const dbUrl = new URL(target.url);
dbUrl.pathname = '/bench_exec_mem';
const db = new pg.Client({ connectionString: dbUrl.toString() });
await db.connect();
// 32 hex characters x 940 = 30,080 characters a row; STORAGE EXTERNAL keeps it uncompressed like real data.
await db.query('CREATE TABLE wide (id int, pad text)');
await db.query('ALTER TABLE wide ALTER pad SET STORAGE EXTERNAL');
await db.query(`INSERT INTO wide SELECT g, repeat(md5(g::text), 940) FROM generate_series(1, ${rows}) g`);
const size = (await db.query<{ s: string }>("SELECT pg_size_pretty(pg_total_relation_size('wide')) AS s")).rows[0]!.s;
await db.end();

interface Run {
  concurrency: number;
  peakMb: string;
  seconds: string;
  answerMb: string;
  statuses: string;
  reasons: string;
}

async function measure(runtime: LocalRuntime, connectionId: string, apiKey: string, concurrency: number): Promise<Run> {
  const body = JSON.stringify({ connection_id: connectionId, sql: 'SELECT * FROM wide', row_limit: 10_000 });
  gc?.();
  await new Promise((r) => setTimeout(r, 200));
  gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const res = await fetch(`${runtime.baseUrl}/execute`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body });
      const text = await res.text();
      peak = Math.max(peak, process.memoryUsage.rss());
      let reason: string;
      try {
        const data = (JSON.parse(text) as { data?: { truncated_reason?: string; row_count?: number } }).data;
        reason = `${data?.truncated_reason ?? 'none'} (${data?.row_count} rows)`;
      } catch {
        reason = 'not JSON';
      }
      return { status: res.status, bytes: Buffer.byteLength(text), reason };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    concurrency,
    peakMb: mb(peak - baseline),
    seconds: seconds.toFixed(1),
    answerMb: (answers.reduce((s, a) => s + a.bytes, 0) / answers.length / 1024 / 1024).toFixed(2),
    statuses: [...new Set(answers.map((a) => a.status))].join('/'),
    reasons: [...new Set(answers.map((a) => a.reason))].join(', '),
  };
}

async function withRuntime<T>(env: Record<string, string>, fn: (runtime: LocalRuntime, connectionId: string, apiKey: string) => Promise<T>): Promise<T> {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-mem-'));
  const runtime = await startLocalRuntime({ port: 0, inMemoryState: true, env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'error', ...env } });
  try {
    const jwt = await runtime.issuer.sign('bench-mem');
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
    return await fn(runtime, conn.data.id, key.data.key);
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

const header = '| budget | concurrent | peak RSS growth (MB) | wall (s) | answer size (MB each) | status | cut |\n|---|---|---|---|---|---|---|';
const line = (budget: string, r: Run): string => `| ${budget} | ${r.concurrency} | ${r.peakMb} | ${r.seconds} | ${r.answerMb} | ${r.statuses} | ${r.reasons} |`;
const out: string[] = [];
await withRuntime({}, async (runtime, id, key) => {
  await measure(runtime, id, key, 1); // warm up: handler modules, parser, pool
  for (const c of list(values.concurrency)) out.push(line('5 MiB (default)', await measure(runtime, id, key, c)));
});
if (list(values.uncapped).length > 0) {
  await withRuntime({ DBOPS_EXECUTE_MAX_RESULT_BYTES: String(2 ** 31) }, async (runtime, id, key) => {
    await measure(runtime, id, key, 1);
    for (const c of list(values.uncapped)) out.push(line('2 GiB (no cap)', await measure(runtime, id, key, c)));
  });
}
await target.stop();
console.log(`table wide: ${rows} rows of ~30 KB (${size}); SELECT * FROM wide, row_limit 10000; node ${process.version}, gc exposed: ${gc !== undefined}`);
console.log(header);
for (const l of out) console.log(l);
