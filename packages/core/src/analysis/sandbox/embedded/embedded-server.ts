import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../../util/free-port';
import { postgresOsUser, type RunAs } from './os-user';
import { baseDir, ownRunDirs, sweepRunDirs } from './run-dirs';
import type { PgBinaries } from './pg-binaries';

const execFileAsync = promisify(execFile);

/** The server's environment: nothing of this process's (its secrets stay here), a fixed locale. */
const CHILD_ENV = { LC_ALL: 'C.UTF-8', PATH: '/usr/local/bin:/usr/bin:/bin' };

/**
 * Passwords of an embedded sandbox server's fixed roles: the superuser and the clone builder.
 * Migrations run as a role made for each run (`run-role.ts`), never as one of these.
 */
export interface EmbeddedCredentials {
  postgres: string;
  builder: string;
}

/** A running version-matched PostgreSQL for sandboxes, private to this process. */
export interface EmbeddedServer {
  binaries: PgBinaries;
  port: number;
  /** `postgres` (superuser: creates and drops databases, terminates backends). */
  adminUrl(database?: string): string;
  /** `dbops_builder`, a superuser that builds clones (extensions need it); its objects are handed to `dbops_clone_owner`. */
  builderUrl(database: string): string;
  /** A role made for one run (`run-role.ts`): the migration runs as it. */
  roleUrl(role: string, password: string, database: string): string;
  /** The run directory (a copy of the prepared data directory), removed when the server stops. */
  runDir: string;
  stop(): Promise<void>;
}

/** Bump when the prepared directory's content changes (roles, settings). */
const LAYOUT = 'v2';

/**
 * Owns the objects of clone templates between runs (no login, no superuser, member of nothing):
 * each run's database hands them to the run's own role (`REASSIGN OWNED`), so no role that
 * runs a migration owns anything another run uses.
 */
export const CLONE_OWNER = 'dbops_clone_owner';

/**
 * Settings of a throwaway server: no durability (a crash loses only sandboxes), loopback only,
 * small memory, and limits a migration cannot lift (a role without superuser cannot change
 * `temp_file_limit`).
 */
const SERVER_FLAGS = [
  ['listen_addresses', '127.0.0.1'],
  ['fsync', 'off'],
  ['synchronous_commit', 'off'],
  ['full_page_writes', 'off'],
  ['shared_buffers', '64MB'],
  ['max_connections', '100'],
  ['temp_file_limit', '1GB'],
  ['max_wal_size', '1GB'],
  ['checkpoint_timeout', '30min'],
  ['log_min_messages', 'fatal'],
  ['logging_collector', 'off'],
  ['jit', 'off'],
] as const;

const chownTree = async (dir: string, as: RunAs): Promise<void> => {
  if (as.uid === undefined) return;
  await execFileAsync('chown', ['-R', `${as.uid}:${as.gid}`, dir]);
};

/**
 * Runs the server under a small shell watchdog: it stops the server (fast shutdown) when asked
 * with SIGTERM or SIGINT, and also when this process is gone, however it ended (a killed test
 * worker or bench fires no exit handler), so no server outlives the service that started it.
 * Once the server has stopped it empties the run directory (`RUNDIR`, a copy of the data
 * directory, hundreds of MB after a few runs): a SIGTERM of the service leaves nothing behind.
 * The emptied directory itself goes at the next start's sweep (as root its parent is not the
 * watchdog's to write).
 */
const WATCHDOG = `"$@" & pg=$!
stop() { kill -INT "$pg" 2>/dev/null; wait "$pg"; [ -n "$RUNDIR" ] && rm -rf "$RUNDIR"/* 2>/dev/null; exit 0; }
trap stop TERM INT
while [ -d "/proc/$OWNER" ] && kill -0 "$pg" 2>/dev/null; do sleep 1 & wait $!; done
stop`;

function startPostgres(bin: PgBinaries, dataDir: string, socketDir: string, port: number, as: RunAs, runDir?: string): ChildProcess {
  const args = ['-D', dataDir, '-p', String(port), '-k', socketDir, ...SERVER_FLAGS.flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'dbops-sandbox-pg', path.join(bin.bin, 'postgres'), ...args], {
    stdio: 'ignore',
    ...as,
    detached: false,
    env: { ...CHILD_ENV, OWNER: String(process.pid), ...(runDir ? { RUNDIR: runDir } : {}) },
  });
  child.unref();
  return child;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited at start (code ${child.exitCode})`);
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.end();
      return;
    } catch (e) {
      lastError = e;
      await c.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms (${(lastError as Error)?.message ?? 'unknown'})`);
}

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.ref(); // wait for it even when nothing else keeps the process alive
    child.kill('SIGTERM'); // the watchdog asks the server for a fast shutdown
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });

const url = (role: string, password: string, port: number, database: string): string =>
  `postgresql://${role}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}?sslmode=disable`;

/**
 * The prepared data directory of `bin`: initdb and the sandbox roles, done once per machine and
 * version and kept (`<base>/pg<version>-<source>-<layout>/data`), so a server starts in well
 * under a second. Prepared under a temporary name and renamed, so concurrent processes never
 * see half of it.
 */
async function preparedDirectory(bin: PgBinaries, env: string | undefined, seedDir?: string): Promise<{ dir: string; credentials: EmbeddedCredentials }> {
  const name = `pg${bin.version}-${bin.source}-${LAYOUT}`;
  // Made ahead and read-only (the analysis function's container image): copied from, never written.
  for (const dir of [...(seedDir ? [path.join(seedDir, name)] : []), path.join(baseDir(env), name)]) {
    const credsFile = path.join(dir, 'credentials.json');
    if (existsSync(credsFile) && existsSync(path.join(dir, 'data', 'PG_VERSION')))
      return { dir, credentials: JSON.parse(await readFile(credsFile, 'utf8')) as EmbeddedCredentials };
  }
  const dir = path.join(baseDir(env), name);
  const credsFile = path.join(dir, 'credentials.json');
  const as = postgresOsUser();
  // Traversable (not listable) by the postgres OS user, which owns what lies inside.
  await mkdir(baseDir(env), { recursive: true, mode: 0o711 });
  await chmod(baseDir(env), 0o711);
  const work = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await mkdir(work, { recursive: true, mode: 0o700 });
  try {
    const credentials: EmbeddedCredentials = {
      postgres: randomBytes(18).toString('base64url'),
      builder: randomBytes(18).toString('base64url'),
    };
    const pwfile = path.join(work, 'pwfile');
    await writeFile(pwfile, `${credentials.postgres}\n`, { mode: 0o600 });
    await chownTree(work, as);
    await execFileAsync(
      path.join(bin.bin, 'initdb'),
      [
        '-D',
        path.join(work, 'data'),
        '-U',
        'postgres',
        '--auth-host=scram-sha-256',
        '--auth-local=trust',
        `--pwfile=${pwfile}`,
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
      ],
      {
        ...as,
        env: CHILD_ENV,
      },
    );
    await rm(pwfile);
    const port = await freePort();
    const child = startPostgres(bin, path.join(work, 'data'), work, port, as);
    try {
      await waitReady(url('postgres', credentials.postgres, port, 'postgres'), child, 30_000);
      const c = new pg.Client({ connectionString: url('postgres', credentials.postgres, port, 'postgres') });
      await c.connect();
      await c.query(`CREATE ROLE dbops_builder LOGIN SUPERUSER PASSWORD '${credentials.builder}'`);
      await c.query(`CREATE ROLE ${CLONE_OWNER} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`);
      // Run roles connect to their own database only (CONNECT is revoked from PUBLIC on each).
      await c.query('REVOKE CONNECT, TEMPORARY ON DATABASE postgres, template1 FROM PUBLIC');
      await c.end();
    } finally {
      await stopChild(child);
    }
    await writeFile(path.join(work, 'credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
    try {
      await rename(work, dir);
    } catch {
      // Another process prepared it meanwhile: use theirs.
      await rm(work, { recursive: true, force: true });
    }
    return { dir, credentials: JSON.parse(await readFile(credsFile, 'utf8')) as EmbeddedCredentials };
  } catch (e) {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
}

/** Servers started by this process, stopped when it exits. */
const live = new Set<{ child: ChildProcess; dir: string }>();
let exitHooked = false;
const hookExit = (): void => {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const s of live) {
      s.child.kill('SIGTERM');
      // The server may still be writing its shutdown files: what this misses, the watchdog empties once it has stopped.
      try {
        rmSync(s.dir, { recursive: true, force: true });
      } catch {
        // left to the watchdog and the next start's sweep
      }
    }
  });
};

/**
 * Starts a private PostgreSQL of `bin`'s version from a copy of its prepared data directory
 * (initdb done once, earlier), on a free loopback port, as the `postgres` OS user when this
 * process is root. Stopped by `stop()` or when the process exits.
 */
export async function startEmbeddedServer(bin: PgBinaries, env?: string, seedDir?: string): Promise<EmbeddedServer> {
  const prepared = await preparedDirectory(bin, env, seedDir);
  await sweepRunDirs(baseDir(env), ownRunDirs);
  const as = postgresOsUser();
  const runDir = path.join(baseDir(env), `run-${process.pid}-${randomBytes(4).toString('hex')}`);
  ownRunDirs.add(path.basename(runDir));
  // Absent when the prepared directory came from a seed (a function's first cold start).
  await mkdir(baseDir(env), { recursive: true, mode: 0o711 });
  await mkdir(runDir, { mode: 0o700 });
  await execFileAsync('cp', ['-a', path.join(prepared.dir, 'data'), path.join(runDir, 'data')]);
  await chmod(runDir, 0o700);
  // A seed made readable to every user (container image) keeps its modes in the copy; PostgreSQL wants its own.
  await chmod(path.join(runDir, 'data'), 0o700);
  if (as.uid !== undefined) await chown(runDir, as.uid, as.gid!);
  const port = await freePort();
  const child = startPostgres(bin, path.join(runDir, 'data'), runDir, port, as, runDir);
  const entry = { child, dir: runDir };
  live.add(entry);
  hookExit();
  const { credentials } = prepared;
  try {
    await waitReady(url('postgres', credentials.postgres, port, 'postgres'), child, 30_000);
  } catch (e) {
    await stopChild(child);
    live.delete(entry);
    await rm(runDir, { recursive: true, force: true });
    throw e;
  }
  return {
    binaries: bin,
    port,
    adminUrl: (database = 'postgres') => url('postgres', credentials.postgres, port, database),
    builderUrl: (database) => url('dbops_builder', credentials.builder, port, database),
    roleUrl: (role, password, database) => url(role, password, port, database),
    runDir,
    async stop() {
      await stopChild(child);
      live.delete(entry);
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/**
 * Prepares the data directory of `bin` under `dir` ahead of time (initdb and the sandbox roles),
 * for a read-only seed: the analysis function's container image runs it at build time, so a
 * cold start copies instead of running initdb. Returns the prepared directory.
 */
export async function prepareSeed(bin: PgBinaries, dir: string): Promise<string> {
  return (await preparedDirectory(bin, dir)).dir;
}
