import pg from 'pg';
import { sql } from './scratch-database';

/**
 * A session on the database busy with a long query, named `sentinel`: an attack that cancels or
 * terminates other backends interrupts it, so `failed()` turns true and
 * `databaseFingerprint(...).sentinels` drops to 0.
 */
export interface SentinelSession {
  pid: number;
  failed(): boolean;
  stop(): Promise<void>;
}

export async function startSentinel(url: string): Promise<SentinelSession> {
  const client = new pg.Client({ connectionString: url, application_name: 'sentinel' });
  client.on('error', () => undefined);
  await client.connect();
  const pid = ((await client.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
  let failed = false;
  const running = client.query('SELECT pg_sleep(600)').catch(() => {
    failed = true;
  });
  return {
    pid,
    failed: () => failed,
    async stop() {
      await sql(url, `SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'sentinel' AND datname = current_database()`).catch(
        () => undefined,
      );
      await running;
      await client.end().catch(() => undefined);
    },
  };
}
