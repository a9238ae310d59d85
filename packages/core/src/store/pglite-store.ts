import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createPgliteFromTemplate, pgliteExtensions } from './pglite-template';
import type { Queryable, QueryResult, Store } from './store';

interface PgliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
}

const wrap = (db: PgliteLike): Queryable => ({
  async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    const res = await db.query<R>(sql, params as unknown[]);
    return { rows: res.rows, rowCount: res.rows.length > 0 ? res.rows.length : (res.affectedRows ?? 0) };
  },
});

/**
 * State store on embedded PostgreSQL (PGlite, WASM) with the pgvector extension.
 * PGlite runs one query at a time and its transactions are exclusive, so
 * statement-level atomicity holds just as on a server.
 */
export class PgliteStore implements Store {
  readonly kind = 'pglite' as const;
  readonly #db: PGlite;
  readonly #q: Queryable;

  private constructor(db: PGlite) {
    this.#db = db;
    this.#q = wrap(db);
  }

  /** Opens (or creates) the store in `dataDir`; `undefined` keeps it in memory. */
  static async open(dataDir?: string): Promise<PgliteStore> {
    const fresh = !dataDir || !existsSync(path.join(dataDir, 'PG_VERSION'));
    const db = fresh ? await createPgliteFromTemplate(dataDir) : await PGlite.create({ dataDir, extensions: pgliteExtensions });
    return new PgliteStore(db);
  }

  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.#q.query<R>(sql, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => fn(wrap(tx)));
  }

  async exec(script: string): Promise<void> {
    await this.#db.exec(script);
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
