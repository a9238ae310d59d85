import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../free-port';
import { clusterRunning, initCluster, startCluster, stopCluster } from '../pg-cluster';

/** Debian's PostgreSQL 15 (`apt-get install postgresql-15`; pgvector: scripts/install-pgvector.sh). */
export const DEFAULT_PG_BIN = '/usr/lib/postgresql/15/bin';

export interface StateServer {
  /** Superuser URL of the server's `postgres` database (trust authentication on loopback). */
  adminUrl: string;
  stop(): Promise<void>;
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** Why the state server cannot start here (missing binaries or pgvector), or null. */
export function stateServerUnavailable(bin: string = DEFAULT_PG_BIN): string | null {
  for (const b of ['initdb', 'pg_ctl', 'postgres'])
    if (!existsSync(path.join(bin, b))) return `PostgreSQL server binaries not found in ${bin} (apt-get install postgresql-15)`;
  let sharedir: string;
  try {
    sharedir = execFileSync(path.join(bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).trim();
  } catch {
    // No pg_config beside the server (postgresql-server-dev not installed): Debian's layout.
    sharedir = path.join('/usr/share/postgresql', path.basename(path.dirname(bin)));
  }
  if (!existsSync(path.join(sharedir, 'extension', 'vector.control')))
    return `pgvector is not installed for the server in ${bin} (run: sudo bash scripts/install-pgvector.sh)`;
  return null;
}

/**
 * The cloud shape's state database when no DBOPS_DATABASE_URL is given: a persistent PostgreSQL
 * cluster with pgvector, standing in for RDS. It lives in `<home>/cloud-state`; as root (the
 * server then runs as `postgres`, which cannot enter the owner-only home) in
 * /var/lib/dbops/cloud-state-<hash of home>. Its port is fixed at first start.
 */
export async function startStateServer(home: string, bin: string = DEFAULT_PG_BIN): Promise<StateServer> {
  const why = stateServerUnavailable(bin);
  if (why) throw new Error(why);
  const dir = isRoot()
    ? `/var/lib/dbops/cloud-state-${createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 12)}`
    : path.join(path.resolve(home), 'cloud-state');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (isRoot()) {
    await chmod('/var/lib/dbops', 0o711);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const data = path.join(dir, 'data');
  const portFile = path.join(path.resolve(home), 'cloud-state.port');
  const port = existsSync(portFile) ? Number(await readFile(portFile, 'utf8')) : await freePort();
  await writeFile(portFile, String(port), { mode: 0o600 });
  const cluster = { bin, data };
  if (!existsSync(path.join(data, 'PG_VERSION'))) await initCluster(cluster);
  let startedHere = false;
  if (!(await clusterRunning(cluster))) {
    await startCluster(cluster, { port, socketDir: dir, logFile: path.join(dir, 'log'), settings: { max_connections: 300 } });
    startedHere = true;
  }
  return {
    adminUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (startedHere) await stopCluster(cluster);
    },
  };
}
