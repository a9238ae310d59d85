import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteStore } from './pglite-store';

// The store's own statements are prepared once in PGlite's backend (pglite-statement-cache.ts);
// these are the ways a prepared statement can go stale or pile up.
describe('PgliteStore prepared statements', () => {
  let store: PgliteStore;
  const prepared = async (sql: string): Promise<number> =>
    Number((await store.query<{ n: string }>('SELECT count(*)::text AS n FROM pg_prepared_statements WHERE statement = $1', [sql])).rows[0]!.n);

  beforeAll(async () => {
    store = await PgliteStore.open();
    await store.exec('CREATE TABLE t (id int PRIMARY KEY, v text)');
  });
  afterAll(() => store.close());

  it('runs a repeated statement from one prepared statement', async () => {
    const sql = 'SELECT v FROM t WHERE id = $1';
    await store.query(sql, [1]);
    await store.query(sql, [2]);
    expect(await prepared(sql)).toBe(1);
  });

  it('keeps a statement first parsed in a transaction that rolled back', async () => {
    const sql = 'INSERT INTO t (id, v) VALUES ($1, $2)';
    await store
      .transaction(async (tx) => {
        await tx.query(sql, [10, 'rolled back']);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await store.query(sql, [11, 'kept']);
    await store.transaction((tx) => tx.query(sql, [12, 'kept too']));
    const rows = await store.query<{ id: number }>('SELECT id FROM t WHERE id >= 10 ORDER BY id');
    expect(rows.rows.map((r) => r.id)).toEqual([11, 12]);
  });

  it('answers with the new columns after the table changed under a SELECT *', async () => {
    await store.exec('CREATE TABLE wide (id int)');
    await store.exec('INSERT INTO wide VALUES (1)');
    const sql = 'SELECT * FROM wide WHERE id = $1';
    expect((await store.query(sql, [1])).rows).toEqual([{ id: 1 }]);
    await store.exec("ALTER TABLE wide ADD COLUMN note text DEFAULT 'n'");
    expect((await store.query(sql, [1])).rows).toEqual([{ id: 1, note: 'n' }]);
  });

  it('runs a statement again after it failed', async () => {
    const sql = 'INSERT INTO t (id, v) VALUES ($1, $2)';
    await store.query(sql, [20, 'a']);
    await expect(store.query(sql, [20, 'b'])).rejects.toThrow(/duplicate key/);
    await store.query(sql, [21, 'c']);
    expect((await store.query('SELECT count(*)::int AS n FROM t WHERE id IN (20, 21)')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps the number of prepared statements bounded', async () => {
    for (let i = 0; i < 300; i++) await store.query(`SELECT $1::int + ${i} AS n`, [i]);
    const { rows } = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect(rows[0]!.n).toBeGreaterThan(200);
    expect(rows[0]!.n).toBeLessThanOrEqual(257);
  });
});
