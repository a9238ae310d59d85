import type pg from 'pg';
import type { SandboxSession } from './sandbox-session';

/**
 * A `pg` client connected to the run's own database on the sandbox server, as a session. Without
 * parameters `pg` uses the simple protocol, so `exec` takes several statements at once, as the
 * clone script and the synthetic-row script need.
 */
export function pgSession(client: pg.Client): SandboxSession {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      const res = await client.query(sql, params);
      return { rows: res.rows as T[] };
    },
    close: () => client.end(),
  };
}
