import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@dbops/local/free-port';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server binaries and the HypoPG extension files (`postgresql-15-hypopg`). */
const BIN = process.env.DBOPS_HYPOPG_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const SHARE = process.env.DBOPS_HYPOPG_PG_SHARE ?? '/usr/share/postgresql/15';
const OS_USER = 'postgres';

export interface HypopgServer {
  /** Admin URL (database `postgres`, trust auth on 127.0.0.1). */
  url: string;
  stop(): Promise<void>;
}

/** Why the HypoPG server cannot start here, or null when it can. */
export function hypopgUnavailableReason(): string | null {
  if (!existsSync(path.join(BIN, 'initdb')) || !existsSync(path.join(BIN, 'pg_ctl'))) return `no PostgreSQL 15 server binaries in ${BIN}`;
  if (!existsSync(path.join(SHARE, 'extension', 'hypopg.control'))) return 'HypoPG is not installed (apt-get install -y postgresql-15-hypopg)';
  return null;
}

/** Runs a server binary, as the `postgres` OS user when we are root (initdb refuses root). */
async function pgBin(name: string, args: string[]): Promise<void> {
  const exe = path.join(BIN, name);
  if (process.getuid?.() === 0) await run('runuser', ['-u', OS_USER, '--', exe, ...args], { timeout: 60_000 });
  else await run(exe, args, { timeout: 60_000 });
}

/**
 * A throwaway PostgreSQL 15 cluster with HypoPG available, in a temporary directory on a free
 * port, or null when the binaries or the extension are missing (tests then skip with the reason).
 */
export async function startHypopgServer(): Promise<HypopgServer | null> {
  if (hypopgUnavailableReason()) return null;
  const dir = await mkdtemp(path.join(tmpdir(), 'dbops-hypopg-'));
  await chmod(dir, 0o777);
  const data = path.join(dir, 'data');
  const port = await freePort();
  try {
    await pgBin('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await pgBin('pg_ctl', [
      '-D',
      data,
      '-w',
      '-t',
      '60',
      '-l',
      path.join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
      'start',
    ]);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await pgBin('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
