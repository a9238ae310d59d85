/**
 * Do real migration chains get tokens? For each project, its migration chain is applied on a
 * real PostgreSQL of the chosen major version; before each of the last N migrations the live
 * schema is introspected and the migration analyzed through the service's HTTP API (the local
 * runtime, sandbox engine `auto`: PGlite only when the target is 17 without extensions it lacks,
 * else a private PostgreSQL of the target's version); then the migration is applied. Counted:
 * migrations PostgreSQL applies that get a token, and migrations it rejects that are refused.
 * At the end, warm analyses of a small migration on the full schema give the p50 latency.
 *
 *   npx tsx bench/migration-chain-tokens.ts [--only lemmy,documenso,pagila] [--last 40] [--major 15] [--why]
 *
 * The chains are read from git mirrors of the public repositories (never copied into this one),
 * under /work/.mirror (`DBOPS_MIRROR_DIR`): lemmy (LemmyNet/lemmy, diesel `migrations/<name>/up.sql`),
 * documenso (documenso/documenso, Prisma `packages/prisma/migrations/<name>/migration.sql`) and
 * pagila (devrimgunduz/pagila's schema, with a chain of our own in bench/migration-chains/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedServer } from '../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { registerConnection } from '../test/support/connections';
import { startTestRuntime } from '../test/support/test-runtime';

const { values } = parseArgs({
  options: { only: { type: 'string' }, last: { type: 'string' }, major: { type: 'string' }, warm: { type: 'string' }, why: { type: 'boolean' } },
});
const MIRROR = process.env.DBOPS_MIRROR_DIR ?? '/work/.mirror';
const LAST = Number(values.last ?? 40);
const MAJOR = Number(values.major ?? 15);
const WARM_RUNS = Number(values.warm ?? 15);

/** bench/migration-chains/pagila.sql cut at its `-- migration: <label>` lines. */
const PAGILA = readFileSync(path.join(import.meta.dirname, 'migration-chains/pagila.sql'), 'utf8')
  .split(/^-- migration: /m)
  .slice(1)
  .map((part) => ({ label: part.slice(0, part.search(/[\s(]/)), sql: part.slice(part.indexOf('\n') + 1) }));

type Git = (...args: string[]) => string;

interface Chain {
  name: string;
  repo: string;
  /** Commit to read (default HEAD). */
  ref?: string;
  /** Applied before the chain, directly. */
  setup?(git: Git): string;
  scripts(git: Git): Array<{ label: string; sql: string }>;
  /** A small migration for the warm latency figure. */
  probe: string;
}

const CHAINS: Chain[] = [
  {
    name: 'lemmy',
    repo: 'LemmyNet/lemmy',
    setup: () => 'CREATE TABLE __diesel_schema_migrations (version varchar(50) PRIMARY KEY, run_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)',
    scripts: (git) =>
      git('ls-tree', '-r', '--name-only', 'HEAD', 'migrations')
        .split('\n')
        .filter((p) => /^migrations\/[^/]+\/up\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/')[1]!, sql: git('show', `HEAD:${p}`) })),
    probe: 'ALTER TABLE person ADD COLUMN bench_note text',
  },
  {
    name: 'documenso',
    repo: 'documenso/documenso',
    scripts: (git) =>
      git('ls-tree', '-r', '--name-only', 'HEAD', 'packages/prisma/migrations')
        .split('\n')
        .filter((p) => /\/migrations\/[^/]+\/migration\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/').at(-2)!, sql: git('show', `HEAD:${p}`) })),
    probe: 'ALTER TABLE "User" ADD COLUMN "benchNote" TEXT',
  },
  {
    // Pagila's schema (its last commit PostgreSQL 15 loads) and a chain of our own
    // (bench/migration-chains/pagila.sql): domains, enum, functions, triggers, views, a
    // materialized view, monthly partitions, extensions; some migrations PostgreSQL rejects.
    name: 'pagila',
    repo: 'devrimgunduz/pagila',
    ref: '23f7fe7',
    setup: (git) => `${git('show', '23f7fe7:pagila-schema.sql')}\n${PAGILA.find((m) => m.label === 'seed')!.sql}`,
    scripts: () => PAGILA.filter((m) => m.label !== 'seed'),
    probe: 'ALTER TABLE film ADD COLUMN bench_note text',
  },
];

const withDb = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function exec(url: string, text: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // One simple-protocol message: PostgreSQL runs it as one transaction, as the tools do per migration.
    await c.query(text);
    return null;
  } catch (e) {
    return (e as Error).message.split('\n')[0]!;
  } finally {
    await c.end();
  }
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bin = findPgBinaries(MAJOR);
if (!bin) {
  console.log(`migration chain bench skipped: no PostgreSQL ${MAJOR} binaries`);
  process.exit(0);
}
const target = await startEmbeddedServer(bin);
const t = await startTestRuntime({ env: { DBOPS_SANDBOX_ENGINE: 'auto' } });
console.log(
  `Migration chain tokens: target PostgreSQL ${bin.version} (${bin.source}); ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${new Date().toISOString()}`,
);
try {
  for (const chain of CHAINS) {
    if (values.only && !values.only.split(',').includes(chain.name)) continue;
    const gitDir = path.join(MIRROR, chain.repo.replace('/', '+'), 'repo');
    if (!existsSync(gitDir)) {
      console.log(`### ${chain.name}: no mirror of ${chain.repo} at ${gitDir}; skipped`);
      continue;
    }
    const git = (...args: string[]): string => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const commit = git('rev-parse', '--short', chain.ref ?? 'HEAD').trim();
    const db = `chain_${chain.name}`;
    await exec(target.adminUrl(), `CREATE DATABASE ${db}`);
    const url = withDb(target.adminUrl(), db);
    const setupError = chain.setup ? await exec(url, chain.setup(git)) : null;
    if (setupError) throw new Error(`${chain.name}: set-up failed: ${setupError}`);
    const scripts = chain.scripts(git);
    const head = scripts.slice(0, Math.max(0, scripts.length - LAST));
    let refusedEarly = 0;
    for (const s of head) if (await exec(url, s.sql)) refusedEarly++;
    const user = `chain-${chain.name}`;
    const connection = await registerConnection(t, user, url, { name: chain.name });
    const apiKey = await t.apiKey(user);
    const counts = { appliedToken: 0, appliedRefused: 0, rejectedRefused: 0, rejectedToken: 0 };
    const misses: string[] = [];
    const durations: number[] = [];
    for (const s of scripts.slice(head.length)) {
      const { sql } = s;
      const intro = await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
      if (intro.status >= 300) throw new Error(`introspect failed: ${intro.status} ${intro.text}`);
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql } });
      durations.push(performance.now() - t0);
      const token = res.status === 200 && typeof res.body.approval_token === 'string';
      const why =
        res.status === 200
          ? (res.body.sandbox_result?.migration_error ?? res.body.sandbox_result?.validation_results?.find((v: { passed: boolean }) => !v.passed)?.detail)
          : `${res.status} ${res.text.slice(0, 200)}`;
      const applyError = await exec(url, sql);
      if (!applyError && token) counts.appliedToken++;
      else if (!applyError) {
        counts.appliedRefused++;
        misses.push(`${s.label}: applied by PostgreSQL, refused: ${why}`);
      } else if (!token) {
        counts.rejectedRefused++;
        if (values.why) misses.push(`${s.label}: rejected by PostgreSQL (${applyError}); refused: ${String(why).slice(0, 240)}`);
      } else {
        counts.rejectedToken++;
        misses.push(`${s.label}: rejected by PostgreSQL (${applyError}), yet got a token`);
      }
    }
    const applied = counts.appliedToken + counts.appliedRefused;
    const rejected = counts.rejectedRefused + counts.rejectedToken;
    console.log(
      `### ${chain.name} (${chain.repo} @ ${commit}): ${scripts.length} migrations, first ${head.length} applied directly (${refusedEarly} rejected), last ${scripts.length - head.length} analyzed`,
    );
    console.log(`applied by PostgreSQL ${bin.major}: ${applied}, of which got a token: ${counts.appliedToken}`);
    console.log(`rejected by PostgreSQL ${bin.major}: ${rejected}, of which refused: ${counts.rejectedRefused}`);
    console.log(
      `analysis per migration (introspected just before, new clone each time): p50 ${p50(durations).toFixed(0)} ms, max ${Math.max(...durations).toFixed(0)} ms`,
    );
    for (const m of misses) console.log(`  ${m}`);
    // Warm: the same snapshot, a small migration again and again (clone cached).
    await t.request('POST', `/connections/${connection.id}/introspect`, { apiKey });
    const warm: number[] = [];
    let passed = 0;
    for (let i = 0; i <= WARM_RUNS; i++) {
      const t0 = performance.now();
      const res = await t.request('POST', `/connections/${connection.id}/migrations/analyze`, { apiKey, body: { sql: chain.probe } });
      if (i > 0) warm.push(performance.now() - t0);
      if (res.body?.sandbox_result?.passed) passed++;
      if (i === 0)
        console.log(
          `warm-up (clone built): ${(performance.now() - t0).toFixed(0)} ms, engine: ${res.body?.sandbox_result?.validation_results?.find((v: { check: string }) => v.check === 'engine')?.detail ?? 'PGlite'}`,
        );
    }
    console.log(
      `warm analysis of "${chain.probe}" on the full schema: p50 ${p50(warm).toFixed(0)} ms over ${WARM_RUNS} runs (${passed - 1 >= 0 ? passed : 0} of ${WARM_RUNS + 1} passed)`,
    );
  }
} finally {
  await t.close();
  await target.stop();
}
