/**
 * Throughput and latency of the local runtime for an authenticated free endpoint
 * (GET /billing/balance with an API key) and a billable one (POST /execute, SELECT 1).
 * The service runs in its own process (`npm start`'s entry point); this process only
 * generates load with autocannon, so the two do not share an event loop.
 *
 *   npx tsx bench/api-throughput.ts [--seconds 10] [--connections 10]
 *
 * The billable run is capped at 1,900 requests: a new account's free credits pay for 2,000.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startTargetServer } from '../test/support/target-server';
import { loadLocalIssuer } from '../packages/local/src/local-issuer';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-'));
const port = 4100 + Math.floor(Math.random() * 800);
const base = `http://127.0.0.1:${port}/api/v1`;
const server = spawn(process.execPath, ['--import', 'tsx', 'packages/local/src/main.ts'], {
  env: { ...process.env, DBOPS_HOME: home, PORT: String(port), DBOPS_RATE_LIMIT: '100000000', DBOPS_LOG_LEVEL: 'error' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

type Result = autocannon.Result;
const run = (opts: autocannon.Options): Promise<Result> =>
  new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
  });

const line = (name: string, r: Result): string =>
  `| ${name} | ${r.requests.total} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`;

const target = await startTargetServer();
try {
  await waitForHealth();
  const issuer = await loadLocalIssuer(home);
  const jwt = await issuer.sign('bench-user');
  const keyRes = await fetch(`${base}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const apiKey = ((await keyRes.json()) as { data: { key: string } }).data.key;

  // Warm up the handler modules and the store before measuring.
  await run({ url: `${base}/billing/balance`, headers: { 'x-api-key': apiKey }, amount: 500, connections });
  const free = await run({ url: `${base}/billing/balance`, headers: { 'x-api-key': apiKey }, duration: seconds, connections });

  const rows = [line('GET /billing/balance (free, API key)', free)];

  const conn = await fetch(`${base}/connections`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', db_type: 'postgresql_local', connection_string: `${target.url}?sslmode=disable` }),
  });
  if (conn.status === 200 || conn.status === 201) {
    const connectionId = ((await conn.json()) as { data: { id: string } }).data.id;
    const billable = await run({
      url: `${base}/execute`,
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ connection_id: connectionId, sql: 'SELECT 1' }),
      amount: 1900,
      connections,
    });
    rows.push(line('POST /execute SELECT 1 (billable, API key)', billable));
  } else {
    rows.push(`| POST /execute (billable) | not measured: POST /connections answered ${conn.status} | | | | |`);
  }

  process.stdout.write(
    [
      `API throughput, ${connections} connections, ${seconds} s (free) / 1,900 requests (billable), ${new Date().toISOString()}`,
      '',
      '| endpoint | requests | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  server.kill('SIGTERM');
  await target.stop();
  await rm(home, { recursive: true, force: true });
}
