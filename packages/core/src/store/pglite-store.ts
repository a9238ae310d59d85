import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { oneTripQuery } from './pglite-one-trip-query';
import { pgliteExtensions } from './pglite-extensions';
import { PgliteStatementCache } from './pglite-statement-cache';
import { createPgliteFromTemplate } from './pglite-template';
import type { Queryable, QueryResult, Store } from './store';

/**
 * State store on embedded PostgreSQL (PGlite, WASM) with the pgvector extension.
 * PGlite runs one query at a time and its transactions are exclusive, so
 * statement-level atomicity holds just as on a server.
 */
export class PgliteStore implements Store {
  readonly kind = 'pglite' as const;
  readonly #db: PGlite;
  readonly #q: Queryable;

  readonly #statements = new PgliteStatementCache();

  private constructor(db: PGlite) {
    this.#db = db;
    const statements = this.#statements;
    // Outside a transaction a statement takes both of PGlite's locks, as PGlite.query does, so
    // it never lands between the statements of someone else's transaction.
    this.#q = {
      query: <R extends object>(sql: string, params: readonly unknown[] = []) =>
        db._runExclusiveTransaction(() => db._runExclusiveQuery(() => oneTripQuery<R>(db, sql, params, statements))),
    };
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
    const db = this.#db;
    const statements = this.#statements;
    // PGlite.transaction holds the transaction lock for the whole callback; each statement in it
    // takes only the query lock, as outside one.
    return db.transaction((tx) =>
      fn({
        query: <R extends object>(sql: string, params: readonly unknown[] = []) => {
          if (tx.closed) throw new Error('Transaction is closed');
          return db._runExclusiveQuery(() => oneTripQuery<R>(db, sql, params, statements));
        },
      }),
    );
  }

  async exec(script: string): Promise<void> {
    await this.#db.exec(script);
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
