import type { ConnectionView } from '@dbops/core/connections';
import { createScratchDatabase, sql } from './scratch-database';
import { startTestRuntime, type TestRuntime } from './test-runtime';

type ScratchDatabase = Awaited<ReturnType<typeof createScratchDatabase>>;

/** `url` with `sslmode=disable` added unless it already names an sslmode (the test server has no TLS). */
export function withSslDisabled(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('sslmode')) u.searchParams.set('sslmode', 'disable');
  return u.toString();
}

/**
 * Registers `url` (for example a scratch database's) as a connection of `user` (a user name
 * for the runtime's local issuer) through `POST /api/v1/connections`, and returns the
 * Connection. Throws with the response when registration fails.
 */
export async function registerConnection(t: TestRuntime, user: string, url: string, options: { name?: string; dbType?: string } = {}): Promise<ConnectionView> {
  const res = await t.request<{ data: ConnectionView }>('POST', '/connections', {
    jwt: await t.jwt(user),
    body: { name: options.name ?? 'test db', db_type: options.dbType ?? 'postgresql_local', connection_string: withSslDisabled(url) },
  });
  if (res.status !== 201) throw new Error(`could not register connection: ${res.status} ${res.text}`);
  return res.body.data;
}

/** A running service with one user, an API key and a registered scratch database. */
export interface ConnectedRuntime {
  t: TestRuntime;
  db: ScratchDatabase;
  user: string;
  apiKey: string;
  connectionId: string;
  close(): Promise<void>;
}

/**
 * Starts the service, creates a scratch database (running `setupSql` on it), and registers it
 * for `user`, who also gets an API key: the common start of feature fixtures.
 */
export async function startConnectedRuntime(options: {
  prefix: string;
  user: string;
  setupSql?: string;
  env?: Record<string, string>;
}): Promise<ConnectedRuntime> {
  const t = await startTestRuntime(options.env ? { env: options.env } : {});
  const db = await createScratchDatabase(options.prefix);
  if (options.setupSql) await sql(db.url, options.setupSql);
  const connection = await registerConnection(t, options.user, db.url);
  const apiKey = await t.apiKey(options.user);
  return {
    t,
    db,
    user: options.user,
    apiKey,
    connectionId: connection.id,
    async close() {
      await t.close();
      await db.drop();
    },
  };
}
