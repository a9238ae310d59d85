import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { SandboxSession } from './sandbox-session';

/** SQLSTATE of `prepared statement "..." does not exist`. */
const INVALID_STATEMENT_NAME = '26000';

/**
 * A `pg` client connected to the run's own database on the sandbox server, as a session. Without
 * parameters `pg` uses the simple protocol, so `exec` takes several statements at once, as the
 * clone script and the synthetic-row script need.
 */
export function pgSession(
  client: pg.Client,
  /**
   * Whether `query(..., { reuse: true })` keeps its statement prepared: only on a server of our
   * own (the embedded engine's), where no connection pooler can hand the session another backend.
   */
  options: { prepares?: boolean } = {},
): SandboxSession {
  // Set once the server no longer has the statements this session prepared (the migration ran
  // DISCARD ALL or DEALLOCATE ALL) while `pg` still thinks it has: from then on, nothing is reused.
  let reuseLost = !options.prepares;
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params?: unknown[], options?: { reuse?: boolean }) {
      if (options?.reuse && !reuseLost) {
        // Named by the text: `pg` prepares a name once per connection and then only binds it.
        const name = `dbops_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
        try {
          return { rows: (await client.query({ name, text: sql, ...(params ? { values: params } : {}) })).rows as T[] };
        } catch (e) {
          if ((e as { code?: string }).code !== INVALID_STATEMENT_NAME) throw e;
          reuseLost = true;
        }
      }
      const res = await client.query(sql, params);
      return { rows: res.rows as T[] };
    },
    close: () => client.end(),
  };
}
