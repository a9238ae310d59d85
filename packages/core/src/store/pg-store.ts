import pg from 'pg';
import type { Queryable, QueryResult, Store } from './store';

/** Options of the `pg` Pool behind {@link PgStore}. */
export interface PgStoreOptions {
  connectionString: string;
  /** Pool size; keep it small on Lambda, where every instance has its own pool. Default 5. */
  max?: number;
  /** `ssl` option passed to `pg` as is (RDS wants `{ rejectUnauthorized: true, ca }` or `true`). */
  ssl?: pg.PoolConfig['ssl'];
}

/** A `pg` pool, pooled client or client as a {@link Queryable}. */
export const pgQueryable = (client: pg.Pool | pg.PoolClient | pg.Client): Queryable => ({
  async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    const res = await client.query(sql, params as unknown[]);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
  },
});

/** State store on a PostgreSQL server through a `pg` Pool. */
export class PgStore implements Store {
  readonly kind = 'pg' as const;
  readonly #pool: pg.Pool;
  readonly #q: Queryable;

  constructor(options: PgStoreOptions) {
    this.#pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 5, ssl: options.ssl });
    // An idle client that errors (server restart) must not crash the process.
    this.#pool.on('error', () => undefined);
    this.#q = pgQueryable(this.#pool);
  }

  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.#q.query<R>(sql, params);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(pgQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async exec(script: string): Promise<void> {
    await this.#pool.query(script);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
