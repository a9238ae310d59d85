import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@dbops/local/free-port';
import { initCluster, startCluster, stopCluster } from '@dbops/local/pg-cluster';

/** Debian's postgresql-15 binaries (`.ci/run` installs the package). */
export const PG15_BIN = '/usr/lib/postgresql/15/bin';

/** Why the PostgreSQL 15 server and pg_dump cannot be used here, or null when they can. */
export const pg15Unavailable = (): string | null =>
  ['initdb', 'pg_ctl', 'pg_dump'].every((b) => existsSync(path.join(PG15_BIN, b)))
    ? null
    : `PostgreSQL 15 binaries not found in ${PG15_BIN} (apt-get install postgresql-15)`;

export interface Pg15Server {
  /** Admin URL (database `postgres`, trust authentication on loopback). */
  url: string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL 15 cluster in a temporary directory, on loopback; `bin` names another
 * copy of the server (e.g. one with pgvector installed, see bench/pgvector-context.ts).
 */
export async function startPg15(bin: string = PG15_BIN): Promise<Pg15Server> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dbops-pg15-'));
  await chmod(dir, 0o777);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const cluster = { bin, data };
  try {
    await initCluster(cluster, { noSync: true });
    await startCluster(cluster, {
      port,
      socketDir: dir,
      logFile: path.join(dir, 'log'),
      settings: { fsync: 'off', max_locks_per_transaction: 256, max_connections: 300 },
    });
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await stopCluster(cluster);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const run = promisify(execFile);

/**
 * `pg_dump --schema-only` without owners and grants, and without the lines that differ between
 * two dumps of equal schemas: `\restrict`/`\unrestrict` (a random key per dump), SQL comments
 * and blank lines.
 */
export async function schemaDump(url: string): Promise<string> {
  const { stdout } = await run(`${PG15_BIN}/pg_dump`, ['--schema-only', '--no-owner', '--no-privileges', '--dbname', url], { maxBuffer: 256 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('--') && !/^\\(un)?restrict\b/.test(l))
    .join('\n');
}

/** The first `max` lines where two dumps differ, as "-source"/"+clone" pairs around a line number. */
export function firstDifferences(a: string, b: string, max = 10): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const out: string[] = [];
  // A plain line diff aligned by longest common subsequence would be costlier; dumps that
  // differ are read by a person, who needs where they start to differ.
  const setB = new Set(y);
  const setA = new Set(x);
  for (const l of x) if (!setB.has(l) && out.length < max) out.push(`- ${l}`);
  for (const l of y) if (!setA.has(l) && out.length < 2 * max) out.push(`+ ${l}`);
  if (out.length === 0 && a !== b) {
    // Same lines, another order: the first line where they part.
    const i = x.findIndex((l, k) => l !== y[k]);
    out.push(`line ${i + 1}: - ${x[i] ?? ''}`, `line ${i + 1}: + ${y[i] ?? ''}`);
  }
  return out;
}
