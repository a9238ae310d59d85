import { stateServerUnavailable } from '@dbops/local/cloud';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildLocalFunctions, type LocalFunctionSet } from '../../infra/local-cloud';
import { startPg15, type Pg15Server } from './pg15-server';

/**
 * What the cloud shape needs in tests: the bundles (built once per source state, shared by every
 * test file through the cache directory) and a PostgreSQL with pgvector standing in for RDS
 * (Debian's postgresql-15 with pgvector from scripts/install-pgvector.sh, one server per test
 * file, a fresh database per runtime).
 */
export const cloudShapeUnavailable = (): string | null => stateServerUnavailable();

const ROOT = path.resolve(import.meta.dirname, '../..');
let functions: Promise<LocalFunctionSet> | undefined;
let server: Promise<Pg15Server> | undefined;

export const localFunctions = (): Promise<LocalFunctionSet> =>
  (functions ??= buildLocalFunctions({ root: ROOT, cacheDir: path.join(tmpdir(), 'dbops-cloud-bundles') }));

/** The file's state server, started on first use; the file stops it with {@link stopStateServer}. */
export function stateServer(): Promise<Pg15Server> {
  server ??= startPg15();
  return server;
}

/** Stops the file's state server (call from the test file's `afterAll`: test workers are killed, not exited). */
export async function stopStateServer(): Promise<void> {
  const s = server;
  server = undefined;
  if (s) await (await s).stop();
}

/** A fresh, empty state database on the file's server; the deploy-migrate bundle migrates it. */
export async function createStateDatabase(): Promise<string> {
  const { url } = await stateServer();
  const name = `dbops_state_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
