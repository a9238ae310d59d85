/**
 * Text-to-SQL evaluation: the questions of bench/text-to-sql/questions.json over the shop
 * schema of bench/text-to-sql/schema.sql (10 tables with foreign keys), each sent through the
 * whole pipeline over HTTP (POST /connections/{id}/queries/generate: retrieval with the default
 * limits, generation, validation, hallucination check, read-only execution). Execution
 * accuracy = the generated SQL returns the same rows as the reference SQL (see
 * bench/text-to-sql/compare-results.ts). Prints accuracy and pipeline latency for the offline
 * generator, and for an OpenAI-compatible model when DBOPS_LLM_API_KEY (or OPENAI_API_KEY) is
 * set (DBOPS_LLM_BASE_URL, DBOPS_LLM_MODEL).
 *
 *   npx tsx bench/text-to-sql.ts [--verbose]
 */
import { startLocalRuntime } from '@dbops/local';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTargetServer } from '../test/support/target-server';
import { sameResult } from './text-to-sql/compare-results';

const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } });
const dir = path.join(import.meta.dirname, 'text-to-sql');
const questions = JSON.parse(await readFile(path.join(dir, 'questions.json'), 'utf8')) as Array<{ q: string; sql: string }>;

const server = await startTargetServer();
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
await admin.query('DROP DATABASE IF EXISTS t2s_bench');
await admin.query('CREATE DATABASE t2s_bench');
await admin.end();
const dbUrl = server.url.replace(/\/postgres$/, '/t2s_bench');
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
await db.query(await readFile(path.join(dir, 'schema.sql'), 'utf8'));

const rowsOf = async (sql: string): Promise<unknown[][]> => (await db.query({ text: sql, rowMode: 'array' })).rows as unknown[][];
const references: unknown[][][] = [];
for (const q of questions) references.push(await rowsOf(q.sql));

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function evaluate(label: string, env: Record<string, string>): Promise<void> {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-t2s-'));
  const runtime = await startLocalRuntime({ port: 0, inMemoryState: true, env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', ...env } });
  try {
    const call = async (method: string, p: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${runtime.baseUrl}${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const jwt = await runtime.issuer.sign('bench-t2s');
    const conn = await call(
      'POST',
      '/connections',
      { authorization: `Bearer ${jwt}` },
      { name: 'shop', db_type: 'postgresql_local', connection_string: `${dbUrl}?sslmode=disable` },
    );
    if (conn.status !== 201) throw new Error(`registration failed: ${JSON.stringify(conn.body)}`);
    const key = (await call('POST', '/api-keys', { authorization: `Bearer ${jwt}` }, { name: 'bench' })).body.data.key as string;
    await runtime.container.store.query('UPDATE users SET balance = 1000 WHERE id = (SELECT user_id FROM connections WHERE id = $1)', [conn.body.data.id]);
    // The first call introspects; keep it out of the latency figures.
    await call('POST', `/connections/${conn.body.data.id}/introspect`, { 'x-api-key': key });

    let correct = 0;
    let failures = 0;
    const latencies: number[] = [];
    const lowConfidence = { total: 0, wrong: 0 };
    for (const [i, q] of questions.entries()) {
      const started = performance.now();
      const res = await call('POST', `/connections/${conn.body.data.id}/queries/generate`, { 'x-api-key': key }, { query: q.q });
      latencies.push(performance.now() - started);
      const data = res.body.data;
      let ok = false;
      if (res.body.success && data?.sql) {
        try {
          ok = sameResult(references[i]!, await rowsOf(data.sql));
        } catch {
          ok = false;
        }
      } else failures++;
      if (ok) correct++;
      if (data && data.confidence < 0.5) {
        lowConfidence.total++;
        if (!ok) lowConfidence.wrong++;
      }
      if (values.verbose && !ok) console.log(`  MISS ${q.q}\n       ${String(data?.sql ?? res.body.error?.code).replace(/\n/g, ' ')}`);
    }
    console.log(
      `${label}: execution accuracy ${correct}/${questions.length} = ${((100 * correct) / questions.length).toFixed(1)}%, ` +
        `pipeline failures ${failures}, confidence < 0.5 on ${lowConfidence.total} (${lowConfidence.wrong} of them wrong), ` +
        `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
    );
  } finally {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  }
}

console.log(`text-to-sql evaluation: ${questions.length} questions, 10 tables; pipeline over HTTP with default limits (5 schema chunks, 3 doc chunks)`);
await evaluate('offline generator', { DBOPS_LLM: 'offline' });
const apiKey = process.env.DBOPS_LLM_API_KEY || process.env.OPENAI_API_KEY;
if (apiKey) {
  await evaluate(`OpenAI-compatible model ${process.env.DBOPS_LLM_MODEL || 'gpt-4o-mini'}`, { DBOPS_LLM: 'openai' });
} else {
  console.log('OpenAI-compatible model: not measured (set DBOPS_LLM_API_KEY, DBOPS_LLM_BASE_URL, DBOPS_LLM_MODEL)');
}
await db.end();
await server.stop();
