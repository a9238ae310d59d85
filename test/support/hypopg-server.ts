import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@dbops/local/free-port';
import { initCluster, startCluster, stopCluster } from '@dbops/local/pg-cluster';

/** Debian's PostgreSQL 15 server binaries and the HypoPG extension files (`postgresql-15-hypopg`). */
const BIN = process.env.DBOPS_HYPOPG_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const SHARE = process.env.DBOPS_HYPOPG_PG_SHARE ?? '/usr/share/postgresql/15';

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
  const cluster = { bin: BIN, data };
  try {
    await initCluster(cluster, { noSync: true });
    await startCluster(cluster, { port, socketDir: dir, logFile: path.join(dir, 'log'), settings: { fsync: 'off', max_connections: 50 } });
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stopCluster(cluster, 'immediate').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
