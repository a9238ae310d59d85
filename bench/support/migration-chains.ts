/**
 * The real migration chains the chain benches run (bench/migration-chain-tokens.ts,
 * bench/rollback-chains.ts): where each is read from, how its tool applies a migration, and a
 * small probe migration for warm latency. The chains are read when a bench runs from git mirrors
 * of the public repositories under /work/.mirror (`DBOPS_MIRROR_DIR`), never copied here:
 *   - lemmy (LemmyNet/lemmy): diesel, `migrations/<name>/up.sql`, each in one transaction;
 *   - documenso (documenso/documenso): Prisma, `packages/prisma/migrations/<name>/migration.sql`;
 *   - pagila (devrimgunduz/pagila's schema) with a chain of our own in bench/migration-chains/;
 *   - hatchet (hatchet-dev/hatchet): goose, the `-- +goose Up` part of
 *     `cmd/hatchet-migrate/migrate/migrations/*.sql`, in one transaction unless the file says
 *     `-- +goose NO TRANSACTION` (then statement by statement, as goose splits them); its Go
 *     migrations cannot run here and are skipped (listed by the benches);
 *   - storage (supabase/storage): postgres-migrations, `migrations/tenant/<n>-<name>.sql` in the
 *     order of n, each in one transaction, after the `auth` schema its own tests load
 *     (`src/test/db/01-auth-schema.sql`);
 *   - harbor (goharbor/harbor): golang-migrate, `make/migrations/postgresql/<n>_<name>.up.sql`, each
 *     file sent as one query (one implicit transaction);
 *   - kratos (ory/kratos): pop, `persistence/sql/migrations/sql/<version>_<name>[.postgres][.autocommit].up.sql`
 *     (the PostgreSQL file of a version, else the one for every dialect), each in one transaction
 *     (an `autocommit` file outside one: sent as one query, as pop sends it).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export const MIRROR_DIR = process.env.DBOPS_MIRROR_DIR ?? '/work/.mirror';

export type Git = (...args: string[]) => string;

/** One migration of a chain. */
export interface ChainScript {
  label: string;
  /** The migration's SQL as a user would hand it to the analysis. */
  sql: string;
  /**
   * Set when the project's tool runs the migration outside a transaction, one statement at a
   * time (goose's NO TRANSACTION): the statements as the tool splits them.
   */
  statements?: string[];
}

export interface Chain {
  name: string;
  repo: string;
  /** Commit to read (default HEAD). */
  ref?: string;
  /** Applied before the chain, directly. */
  setup?(git: Git, ref: string): string;
  scripts(git: Git, ref: string): ChainScript[];
  /** Files of the chain that cannot run here (a tool's migrations in another language), for the benches to list. */
  skipped?(git: Git, ref: string): string[];
  /** A small migration for the warm latency figure. */
  probe: string;
}

/** bench/migration-chains/pagila.sql cut at its `-- migration: <label>` lines. */
const PAGILA = readFileSync(path.join(import.meta.dirname, '../migration-chains/pagila.sql'), 'utf8')
  .split(/^-- migration: /m)
  .slice(1)
  .map((part) => ({ label: part.slice(0, part.search(/[\s(]/)), sql: part.slice(part.indexOf('\n') + 1) }));

const files = (git: Git, ref: string, dir: string): string[] => git('ls-tree', '-r', '--name-only', ref, dir).split('\n').filter(Boolean);

/** Whether a goose line ends its statement: its code (before a `--` comment) ends with `;`. */
const endsStatement = (line: string): boolean => /;\s*$/.test(line.replace(/--.*$/, ''));

/**
 * The `-- +goose Up` part of a goose file, and its statements as goose splits them when the file
 * runs outside a transaction: a statement ends at a line ending in `;`, except between
 * `-- +goose StatementBegin` and `-- +goose StatementEnd`.
 */
export function gooseUp(text: string): { sql: string; noTransaction: boolean; statements: string[] } {
  const lines = text.split('\n');
  const up: string[] = [];
  const statements: string[] = [];
  let inUp = false;
  let inBlock = false;
  let current: string[] = [];
  for (const line of lines) {
    const directive = /^\s*--\s*\+goose\s+(\w+)/i.exec(line)?.[1]?.toLowerCase();
    if (directive === 'up') {
      inUp = true;
      continue;
    }
    if (directive === 'down') break;
    if (!inUp) continue;
    if (directive === 'statementbegin') inBlock = true;
    if (directive === 'statementend') {
      inBlock = false;
      if (current.join('\n').trim()) statements.push(current.join('\n').trim());
      current = [];
    }
    if (directive) continue;
    up.push(line);
    current.push(line);
    if (!inBlock && endsStatement(line)) {
      if (current.join('\n').trim()) statements.push(current.join('\n').trim());
      current = [];
    }
  }
  if (current.join('\n').trim()) statements.push(current.join('\n').trim());
  return { sql: up.join('\n').trim(), noTransaction: /^\s*--\s*\+goose\s+NO\s+TRANSACTION/im.test(text), statements };
}

const HATCHET_DIR = 'cmd/hatchet-migrate/migrate/migrations';
const STORAGE_DIR = 'migrations/tenant';
const HARBOR_DIR = 'make/migrations/postgresql';
const KRATOS_DIR = 'persistence/sql/migrations/sql';

/** pop's choice per version: the PostgreSQL file, else the dialect-free one; other dialects' files are not PostgreSQL's. */
function popUpFiles(paths: string[]): string[] {
  const byVersion = new Map<string, { specific?: string; generic?: string }>();
  for (const p of paths) {
    const m = /\/(\d+)_[^./]+(\.(postgres|cockroach|mysql|sqlite3|sqlite))?(\.autocommit)?\.up\.sql$/.exec(p);
    if (!m) continue;
    const entry = byVersion.get(m[1]!) ?? {};
    if (m[3] === 'postgres') entry.specific = p;
    else if (!m[3]) entry.generic = p;
    byVersion.set(m[1]!, entry);
  }
  return [...byVersion.entries()]
    .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
    .map(([, e]) => e.specific ?? e.generic)
    .filter((p): p is string => p !== undefined);
}

export const CHAINS: Chain[] = [
  {
    name: 'lemmy',
    repo: 'LemmyNet/lemmy',
    setup: () => 'CREATE TABLE __diesel_schema_migrations (version varchar(50) PRIMARY KEY, run_on timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)',
    scripts: (git, ref) =>
      files(git, ref, 'migrations')
        .filter((p) => /^migrations\/[^/]+\/up\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/')[1]!, sql: git('show', `${ref}:${p}`) })),
    probe: 'ALTER TABLE person ADD COLUMN bench_note text',
  },
  {
    name: 'documenso',
    repo: 'documenso/documenso',
    scripts: (git, ref) =>
      files(git, ref, 'packages/prisma/migrations')
        .filter((p) => /\/migrations\/[^/]+\/migration\.sql$/.test(p))
        .sort()
        .map((p) => ({ label: p.split('/').at(-2)!, sql: git('show', `${ref}:${p}`) })),
    probe: 'ALTER TABLE "User" ADD COLUMN "benchNote" TEXT',
  },
  {
    // Pagila's schema (its last commit PostgreSQL 15 loads) and a chain of our own
    // (bench/migration-chains/pagila.sql): domains, enum, functions, triggers, views, a
    // materialized view, monthly partitions, extensions; some migrations PostgreSQL rejects.
    name: 'pagila',
    repo: 'devrimgunduz/pagila',
    ref: '23f7fe7',
    setup: (git, ref) => `${git('show', `${ref}:pagila-schema.sql`)}\n${PAGILA.find((m) => m.label === 'seed')!.sql}`,
    scripts: () => PAGILA.filter((m) => m.label !== 'seed'),
    probe: 'ALTER TABLE film ADD COLUMN bench_note text',
  },
  {
    // A workflow engine: PL/pgSQL functions and triggers, range- and hash-partitioned tables,
    // CREATE INDEX CONCURRENTLY migrations (goose NO TRANSACTION).
    name: 'hatchet',
    repo: 'hatchet-dev/hatchet',
    scripts: (git, ref) =>
      files(git, ref, HATCHET_DIR)
        .filter((p) => p.endsWith('.sql'))
        .sort()
        .map((p) => {
          const up = gooseUp(git('show', `${ref}:${p}`));
          return { label: path.basename(p, '.sql'), sql: up.sql, ...(up.noTransaction ? { statements: up.statements } : {}) };
        }),
    skipped: (git, ref) =>
      files(git, ref, HATCHET_DIR)
        .filter((p) => p.endsWith('.go') && /^\d/.test(path.basename(p)))
        .map((p) => path.basename(p)),
    probe: 'ALTER TABLE "Tenant" ADD COLUMN "benchNote" TEXT',
  },
  {
    // Supabase Storage's tenant schema: PL/pgSQL functions, triggers, row level security.
    name: 'storage',
    repo: 'supabase/storage',
    setup: (git, ref) => git('show', `${ref}:src/test/db/01-auth-schema.sql`),
    scripts: (git, ref) =>
      files(git, ref, STORAGE_DIR)
        .filter((p) => /\/\d+-[^/]+\.sql$/.test(p))
        .map((p) => ({ p, n: Number(path.basename(p).split('-')[0]) }))
        .sort((a, b) => a.n - b.n)
        .map(({ p }) => {
          const sql = git('show', `${ref}:${p}`);
          // The tool replaces a migration marked `ignore` with SELECT 1.
          return { label: path.basename(p, '.sql'), sql: sql.includes('-- postgres-migrations ignore') ? 'SELECT 1;' : sql };
        }),
    probe: 'ALTER TABLE storage.objects ADD COLUMN bench_note text',
  },
  {
    // A container registry: PL/pgSQL functions and DO blocks, triggers, large multi-statement
    // release migrations.
    name: 'harbor',
    repo: 'goharbor/harbor',
    // golang-migrate's own table, which the 2.0 migration reads.
    setup: () => 'CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)',
    scripts: (git, ref) =>
      files(git, ref, HARBOR_DIR)
        .filter((p) => p.endsWith('.up.sql'))
        .sort()
        .map((p) => ({ label: path.basename(p, '.up.sql'), sql: git('show', `${ref}:${p}`) })),
    probe: 'ALTER TABLE project ADD COLUMN bench_note text',
  },
  {
    // An identity server: hundreds of small migrations, many of them rebuilding constraints and indexes.
    name: 'kratos',
    repo: 'ory/kratos',
    scripts: (git, ref) =>
      popUpFiles(files(git, ref, KRATOS_DIR)).map((p) => ({
        label: path.basename(p).replace(/(\.postgres)?(\.autocommit)?\.up\.sql$/, ''),
        sql: git('show', `${ref}:${p}`),
      })),
    probe: 'ALTER TABLE identities ADD COLUMN bench_note text',
  },
];

/** The chain's git directory under the mirror directory, or null when it was not fetched. */
export function openMirror(chain: Chain): { git: Git; ref: string; commit: string; gitDir: string } | null {
  const base = path.join(MIRROR_DIR, chain.repo.replace('/', '+'), 'repo');
  const gitDir = existsSync(path.join(base, '.git')) ? path.join(base, '.git') : base;
  if (!existsSync(path.join(gitDir, 'HEAD'))) return null;
  const git: Git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ref = chain.ref ?? 'HEAD';
  return { git, ref, commit: git('rev-parse', '--short', ref).trim(), gitDir };
}

export const withDb = (url: string, db: string): string => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

/** Runs `text` as one simple-protocol message (PostgreSQL runs it as one transaction); PostgreSQL's message on failure, else null. */
export async function exec(url: string, text: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
    return null;
  } catch (e) {
    return (e as Error).message.split('\n')[0]!;
  } finally {
    await c.end();
  }
}

/** Applies a migration as its project's tool does: one transaction, or statement by statement when the tool runs it outside one. */
export async function applyScript(url: string, script: ChainScript): Promise<string | null> {
  if (!script.statements) return exec(url, script.sql);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const s of script.statements) {
      try {
        await c.query(s);
      } catch (e) {
        return (e as Error).message.split('\n')[0]!;
      }
    }
    return null;
  } finally {
    await c.end();
  }
}

/** Runs a script with psql (`bin`: its directory), stopping at the first error: PostgreSQL's ERROR line, else null. */
export function psql(bin: string, url: string, sql: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      path.join(bin, 'psql'),
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', '-'],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, _out, stderr) => resolve(err ? (stderr.split('\n').find((l) => l.includes('ERROR')) ?? String(err)).replace(/^psql:<stdin>:\d+: /, '') : null),
    );
    child.stdin?.end(sql);
  });
}

/**
 * The chain's mirror opened and a fresh database `db` made for it on the server of `adminUrl`,
 * with the chain's set-up applied; null (said on the console) when no mirror of it is here.
 */
export async function openChainDatabase(
  chain: Chain,
  adminUrl: string,
  db: string,
): Promise<{ git: Git; ref: string; commit: string; url: string; scripts: ChainScript[] } | null> {
  const mirror = openMirror(chain);
  if (!mirror) {
    console.log(`### ${chain.name}: no mirror of ${chain.repo} under ${MIRROR_DIR}; skipped`);
    return null;
  }
  const { git, ref, commit } = mirror;
  await exec(adminUrl, `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await exec(adminUrl, `CREATE DATABASE ${db}`);
  const url = withDb(adminUrl, db);
  const setupError = chain.setup ? await exec(url, chain.setup(git, ref)) : null;
  if (setupError) throw new Error(`${chain.name}: set-up failed: ${setupError}`);
  return { git, ref, commit, url, scripts: chain.scripts(git, ref) };
}
