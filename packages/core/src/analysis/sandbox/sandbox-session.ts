import { type PGlite, protocol } from '@electric-sql/pglite';

/**
 * The throwaway database a sandbox run works in, whichever engine holds it: an in-process PGlite
 * or a database created for the run on a configured PostgreSQL server. Cloning, synthetic rows,
 * the migration and the validations only use these three calls.
 */
export interface SandboxSession {
  /** Runs SQL text (one statement or several separated by semicolons); results are discarded. */
  exec(sql: string): Promise<void>;
  /** Runs one statement, with `$n` parameters when given, and returns its rows. */
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

/**
 * A PGlite instance as a session. `exec` sends one simple-protocol Query and leaves the result
 * unparsed: `PGlite.exec` adds a Sync (a second turn of PGlite's main loop) and parses rows
 * nobody reads, a third of the cost of a migration statement.
 */
export function pgliteSession(db: PGlite): SandboxSession {
  return {
    async exec(sql) {
      await db.execProtocol(protocol.serialize.query(sql), { throwOnError: true, syncToFs: false });
    },
    async query<T>(sql: string, params?: unknown[]) {
      return db.query<T>(sql, params);
    },
    close: () => db.close(),
  };
}
