/** Rows and count of one statement. */
export interface QueryResult<R> {
  rows: R[];
  /** Rows returned or affected. */
  rowCount: number;
}

/** Anything that runs one parameterized statement: the store itself or a transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/**
 * The service's own state database. Two implementations pass the same contract:
 * {@link PgStore} (RDS or any PostgreSQL server) and {@link PgliteStore} (embedded default).
 */
export interface Store extends Queryable {
  readonly kind: 'pg' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (used by schema migrations). */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}
