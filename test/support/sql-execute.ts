import pg from 'pg';
import { sql } from './scratch-database';
import { startConnectedRuntime } from './connections';
import type { ApiResponse, TestRuntime } from './test-runtime';

/** A runtime, a scratch database registered as a connection of `user`, and an API key. */
export interface ExecuteFixture {
  t: TestRuntime;
  db: { url: string; name: string; drop(): Promise<void> };
  user: string;
  apiKey: string;
  connectionId: string;
  /** POST /execute with the connection filled in. */
  execute<T = any>(body: Record<string, unknown>, apiKey?: string): Promise<ApiResponse<T>>;
  /**
   * An admin session on the fixture database, opened on first use and kept until `close`: a test
   * that reads the database after every request spares two new sessions a check (20-35 ms each).
   */
  admin(): Promise<pg.Client>;
  close(): Promise<void>;
}

export async function startExecuteFixture(options: { user?: string; setupSql?: string; env?: Record<string, string> } = {}): Promise<ExecuteFixture> {
  const base = await startConnectedRuntime({ ...options, prefix: 'sqlexec', user: options.user ?? 'sql-exec-user' });
  const { t, apiKey, connectionId } = base;
  let admin: Promise<pg.Client> | undefined;
  return {
    ...base,
    execute: (body, key = apiKey) => t.request('POST', '/execute', { apiKey: key, body: { connection_id: connectionId, ...body } }),
    admin: () =>
      (admin ??= (async () => {
        const c = new pg.Client({ connectionString: base.db.url });
        await c.connect();
        return c;
      })()),
    async close() {
      await admin?.then((c) => c.end()).catch(() => undefined);
      await base.close();
    },
  };
}

/**
 * Everything a blocked statement could have changed in the fixture database: the relations of
 * schema public, the contents of table `t`, the sequence `s`, large objects, advisory locks
 * held by anyone in this database (pg_locks is server-wide; other test files share the server), and whether the `sentinel` session is still alive.
 */
export async function databaseFingerprint(target: string | pg.Client): Promise<Record<string, unknown>> {
  // On a kept session (ExecuteFixture.admin) when given one.
  const read = async (text: string) => (typeof target === 'string' ? sql(target, text) : (await target.query(text)).rows);
  const [row] = await read(
    `SELECT
       (SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public') AS relations,
       (SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM t) AS t_rows,
       (SELECT last_value || '/' || is_called FROM s) AS seq,
       (SELECT count(*)::int FROM pg_largeobject_metadata) AS large_objects,
       (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS advisory_locks,
       (SELECT count(*)::int FROM audit) AS audit_rows,
       (SELECT count(*)::int FROM pg_stat_activity WHERE application_name = 'sentinel' AND datname = current_database()) AS sentinels`,
  );
  return row!;
}
