import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL cluster on disk, driven by the server binaries in `bin` (e.g. /usr/lib/postgresql/15/bin). */
export interface PgCluster {
  bin: string;
  /** The data directory. */
  data: string;
}

/** initdb and postgres refuse root: as root they run as the `postgres` OS user. */
export function asPostgresUser(args: readonly string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)];
}

const pgBin = async (cluster: PgCluster, name: string, args: string[]): Promise<void> => {
  await run(...asPostgresUser([path.join(cluster.bin, name), ...args]), { timeout: 120_000 });
};

/**
 * initdb with a `postgres` superuser trusted on loopback, UTF-8 and the C.UTF-8 locale (the same
 * collation everywhere). `noSync` skips the final fsync: for throwaway clusters only.
 */
export async function initCluster(cluster: PgCluster, options: { noSync?: boolean } = {}): Promise<void> {
  await pgBin(cluster, 'initdb', [
    '-D',
    cluster.data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    ...(options.noSync ? ['--no-sync'] : []),
  ]);
}

/**
 * `pg_ctl start`, waiting up to a minute: listening on 127.0.0.1:`port` only, its socket in
 * `socketDir`, its log in `logFile`, with the server settings given (`-c name=value`).
 */
export async function startCluster(
  cluster: PgCluster,
  options: { port: number; socketDir: string; logFile: string; settings?: Record<string, string | number> },
): Promise<void> {
  const settings = Object.entries({ listen_addresses: '127.0.0.1', ...options.settings }).map(([k, v]) => `-c ${k}=${v}`);
  await pgBin(cluster, 'pg_ctl', [
    '-D',
    cluster.data,
    '-w',
    '-t',
    '60',
    '-l',
    options.logFile,
    '-o',
    [`-p ${options.port}`, `-k ${options.socketDir}`, ...settings].join(' '),
    'start',
  ]);
}

/** Whether a server is running on the cluster (`pg_ctl status`). */
export async function clusterRunning(cluster: PgCluster): Promise<boolean> {
  return pgBin(cluster, 'pg_ctl', ['-D', cluster.data, 'status']).then(
    () => true,
    () => false,
  );
}

/** `pg_ctl stop`: `fast` rolls back open transactions and checkpoints; `immediate` does neither (throwaway clusters). */
export async function stopCluster(cluster: PgCluster, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  await pgBin(cluster, 'pg_ctl', ['-D', cluster.data, '-m', mode, '-w', 'stop']);
}
