import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../../../../test/support/scratch-database';
import { pgSession } from './pg-session';
import { rowCounts } from './sandbox-validations';

/**
 * Statements a sandbox session keeps prepared (issue #34: a warm analysis planned the same
 * 200-table row count three times on one session), on a real PostgreSQL.
 */
describe('a pg sandbox session', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  const clients: pg.Client[] = [];
  const client = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    clients.push(c);
    return c;
  };
  const prepared = async (c: pg.Client): Promise<string[]> =>
    (await c.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name);

  beforeAll(async () => {
    db = await createScratchDatabase('pgsession');
    const c = await client();
    await c.query('CREATE TABLE b (id int); CREATE TABLE a (id int); CREATE TABLE c (id int); INSERT INTO a VALUES (1), (2); INSERT INTO c VALUES (3)');
  });

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await db?.drop();
  });

  it('keeps a reused statement prepared under one name, and the row counts of the same tables in any order are one statement', async () => {
    const c = await client();
    const session = pgSession(c, { prepares: true });
    const first = await session.query<{ n: number }>('SELECT count(*)::int AS n FROM a', undefined, { reuse: true });
    const again = await session.query<{ n: number }>('SELECT count(*)::int AS n FROM a', undefined, { reuse: true });
    expect(first.rows).toEqual([{ n: 2 }]);
    expect(again.rows).toEqual([{ n: 2 }]);
    expect(await prepared(c)).toHaveLength(1);
    const counts = await rowCounts(session, ['public.c', 'public.a', 'public.b']);
    await rowCounts(session, ['public.b', 'public.c', 'public.a']);
    expect(await prepared(c)).toHaveLength(2);
    expect(Object.fromEntries(counts)).toEqual({ 'public.a': 2, 'public.b': 0, 'public.c': 1 });
  });

  it('runs a statement again as it is once the server dropped what it had prepared (DISCARD ALL in the migration)', async () => {
    const c = await client();
    const session = pgSession(c, { prepares: true });
    expect((await rowCounts(session, ['public.a'])).get('public.a')).toBe(2);
    await session.exec('DISCARD ALL');
    expect((await rowCounts(session, ['public.a'])).get('public.a')).toBe(2);
    expect((await rowCounts(session, ['public.a', 'public.c'])).get('public.c')).toBe(1);
    expect(await prepared(c)).toEqual([]);
  });

  it('prepares nothing unless made to (a sandbox server may sit behind a connection pooler)', async () => {
    const c = await client();
    const session = pgSession(c);
    await session.query('SELECT 1', undefined, { reuse: true });
    await rowCounts(session, ['public.a', 'public.b']);
    expect(await prepared(c)).toEqual([]);
  });
});
