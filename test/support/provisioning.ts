import pg from 'pg';
import { createScratchDatabase } from './scratch-database';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/** A test runtime whose shared instance is a fresh scratch database on the run's real server. */
export async function startProvisioningRuntime(): Promise<{ t: TestRuntime; adminUrl: string; close(): Promise<void> }> {
  const scratch = await createScratchDatabase('prov');
  const adminUrl = `${scratch.url}?sslmode=disable`;
  const t = await startTestRuntime({ env: { DBOPS_SHARED_INSTANCE_URL: adminUrl } });
  return {
    t,
    adminUrl,
    async close() {
      await t.close();
      await scratch.drop();
    },
  };
}

/** A `pg` client logged in with a tenant's own connection string (never the admin). */
export async function connectAs(connectionString: string): Promise<pg.Client> {
  const u = new URL(connectionString);
  const client = new pg.Client({
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
    ssl: false,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The SQLSTATE of the error `promise` rejects with (throws when it resolves). */
export async function sqlState(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? 'no-code';
  }
  throw new Error('expected the statement to fail');
}
