/**
 * Fidelity of the schema model on real public schemas: each is loaded into a PostgreSQL 15
 * database, introspected as the service does, rebuilt from `schemaDdl` in an empty database,
 * and `pg_dump --schema-only` of both is compared (owners, grants and dump noise left out).
 *
 *   npx tsx bench/schema-fidelity.ts [--only pagila,lemmy,documenso]
 *
 * The schemas are read when the bench runs from git mirrors of their public repositories
 * (never copied into this one), under /work/.mirror (`DBOPS_MIRROR_DIR`):
 *   - pagila (devrimgunduz/pagila): pagila-schema.sql, as one script;
 *   - lemmy (LemmyNet/lemmy): its diesel migration chain, every `migrations/<name>/up.sql` in
 *     name order, each in its own transaction;
 *   - documenso (documenso/documenso), a Prisma project: every
 *     `packages/prisma/migrations/<name>/migration.sql` in name order, each in a transaction.
 * A migration PostgreSQL 15 refuses is counted and skipped, as a deploy would stop there.
 * Needs Debian's postgresql-15 (server, psql and pg_dump).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { PG15_BIN, pg15Unavailable, startPg15 } from '../test/support/pg15-server';
import { rebuildAndCompare } from '../test/support/schema-fidelity';

const run = promisify(execFile);
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const MIRROR = process.env.DBOPS_MIRROR_DIR ?? '/work/.mirror';

interface Corpus {
  name: string;
  repo: string;
  /** The commit to read; HEAD unless the newest no longer loads on PostgreSQL 15. */
  ref?: string;
  /** Run first, as the project's migration tool would (diesel's bookkeeping table). */
  setup?: string;
  /** SQL scripts in the order to apply them, each with a label. */
  scripts(git: (...args: string[]) => string): Array<{ label: string; path: string }>;
}

const CORPORA: Corpus[] = [
  // Pagila's newest schema needs PostgreSQL 18 (uuidv7(), virtual generated columns): the last
  // commit before those (2026-07-28) is read.
  { name: 'pagila', repo: 'devrimgunduz/pagila', ref: '23f7fe7', scripts: () => [{ label: 'pagila-schema.sql', path: 'pagila-schema.sql' }] },
  {
    name: 'lemmy',
    repo: 'LemmyNet/lemmy',
    setup: 'CREATE TABLE __diesel_schema_migrations (version varchar(50) PRIMARY KEY, run_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)',
    scripts: (git) =>
      git('ls-tree', '-r', '--name-only', 'REF', 'migrations')
        .split('\n')
        .filter((p) => /^migrations\/[^/]+\/up\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/')[1]!, path: p })),
  },
  {
    name: 'documenso',
    repo: 'documenso/documenso',
    scripts: (git) =>
      git('ls-tree', '-r', '--name-only', 'REF', 'packages/prisma/migrations')
        .split('\n')
        .filter((p) => /\/migrations\/[^/]+\/migration\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/').at(-2)!, path: p })),
  },
];

const withDb = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function exec(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Applies one script with psql (scripts may hold psql meta-commands), in one transaction when asked. */
async function psql(url: string, sql: string, single: boolean): Promise<string | null> {
  try {
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        `${PG15_BIN}/psql`,
        ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...(single ? ['-1'] : []), '-d', url, '-f', '-'],
        { maxBuffer: 64 * 1024 * 1024 },
        (err, _out, stderr) => (err ? reject(new Error(stderr.split('\n').find((l) => l.includes('ERROR')) ?? String(err))) : resolve()),
      );
      child.stdin?.end(sql);
    });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

const unavailable = pg15Unavailable();
if (unavailable) {
  console.log(`schema fidelity bench skipped: ${unavailable}`);
  process.exit(0);
}
const only = values.only?.split(',');
const server = await startPg15();
const version = (await run(`${PG15_BIN}/pg_dump`, ['--version'])).stdout.trim();
console.log(`Schema fidelity bench: PostgreSQL 15 (Debian), ${version}`);
try {
  for (const corpus of CORPORA) {
    if (only && !only.includes(corpus.name)) continue;
    const gitDir = path.join(MIRROR, corpus.repo.replace('/', '+'), 'repo');
    if (!existsSync(gitDir)) {
      console.log(`### ${corpus.name}: no mirror of ${corpus.repo} at ${gitDir} (fetch it first); skipped`);
      continue;
    }
    const ref = corpus.ref ?? 'HEAD';
    const git = (...args: string[]): string =>
      execFileSync('git', ['--git-dir', gitDir, ...args.map((a) => (a === 'REF' ? ref : a))], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const commit = git('rev-parse', '--short', 'REF').trim();
    const db = `fid_${corpus.name}`;
    await exec(server.url, `CREATE DATABASE ${db}`);
    await exec(server.url, `CREATE DATABASE ${db}_clone`);
    if (corpus.setup) await exec(withDb(server.url, db), corpus.setup);
    const scripts = corpus.scripts(git);
    const refused: string[] = [];
    const t0 = performance.now();
    for (const s of scripts) {
      const error = await psql(withDb(server.url, db), git('show', `${ref}:${s.path}`), scripts.length > 1);
      if (error) refused.push(`${s.label}: ${error}`);
    }
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    const r = await rebuildAndCompare(withDb(server.url, db), withDb(server.url, `${db}_clone`));
    const rebuildMs = performance.now() - t1;
    console.log(`### ${corpus.name} (${corpus.repo} @ ${commit})`);
    console.log(
      `scripts applied: ${scripts.length - refused.length} of ${scripts.length} in ${(loadMs / 1000).toFixed(1)} s${refused.length ? `; refused by PostgreSQL 15: ${refused.length}` : ''}`,
    );
    for (const x of refused.slice(0, 5)) console.log(`  refused: ${x}`);
    const m = r.snapshot.model;
    console.log(
      `objects captured: ${r.objects} (${r.snapshot.tables.length} relations, ${r.snapshot.enums.length + (m?.types.length ?? 0)} types, ${m?.routines.length ?? 0} routines, ${m?.triggers.length ?? 0} triggers, ${m?.policies.length ?? 0} policies, ${m?.dependencies.length ?? 0} dependency pairs)`,
    );
    console.log(
      `statements: ${r.ddl.statements.length}, failed in the clone: ${r.failed.length}, skipped: ${r.ddl.skipped.length}; introspect + rebuild + two dumps: ${(rebuildMs / 1000).toFixed(1)} s`,
    );
    for (const f of r.failed.slice(0, 5)) console.log(`  failed: ${f.object}: ${f.error}`);
    for (const s of r.ddl.skipped.slice(0, 5)) console.log(`  skipped: ${s.object}: ${s.reason}`);
    console.log(`dumps identical: ${r.identical ? 'yes' : 'NO'} (${r.sourceDump.split('\n').length} lines)`);
    if (!r.identical) for (const d of r.differences) console.log(`  ${d}`);
  }
} finally {
  await server.stop();
}
