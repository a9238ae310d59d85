import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { sampleJsonbEntries } from './sample-gin-entries';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let c: pg.Client;
beforeAll(async () => {
  db = await createScratchDatabase('ginent');
  await sql(
    db.url,
    `CREATE TABLE doc (id int PRIMARY KEY, flat jsonb, nested jsonb, arr jsonb, n int);
     INSERT INTO doc SELECT g,
       jsonb_build_object('colour', 'red', 'size', g % 40) || CASE WHEN g % 2 = 0 THEN jsonb_build_object('note', repeat(md5(g::text), 10)) ELSE '{}' END,
       jsonb_build_object('a', 1, 'b', jsonb_build_object('c', 'x', 'd', jsonb_build_array(1, 2, 2))),
       CASE WHEN g % 4 = 0 THEN NULL ELSE jsonb_build_array('p', 'q', 'p') END,
       g
     FROM generate_series(1, 4000) g`,
  );
  await sql(db.url, 'VACUUM ANALYZE doc');
  c = new pg.Client({ connectionString: db.url });
  await c.connect();
  // The analysis reads the target inside a read-only transaction (its reads sit under savepoints).
  await c.query('BEGIN READ ONLY');
});
afterAll(async () => {
  await c?.end();
  await db?.drop();
});

const whole = async (column: string, opclass: string | null = null, hasPredicate = false) => {
  const t = (await c.query(`SELECT 'doc'::regclass::oid::int AS oid, pg_relation_size('doc')::float8 AS heap`)).rows[0] as { oid: number; heap: number };
  // 8x the heap: the sample is an eighth of the count bytes, so every page is read.
  return sampleJsonbEntries(c, { name: 'doc', oid: t.oid, heap: t.heap }, column, opclass, hasPredicate, t.heap * 8);
};

describe('sampleJsonbEntries', () => {
  it('counts every key and scalar once a row under jsonb_ops, whatever their width', async () => {
    const s = await whole('flat');
    // colour, size, red and the size's value; half the rows add the note's key and its 320-byte value.
    expect(s!.rows).toBe(2000);
    expect(s!.entries / s!.rows).toBeCloseTo(5, 5);
    // The width-based count (one entry per 10 bytes) would say about 19 a row.
    const width = (await c.query(`SELECT avg_width FROM pg_stats WHERE tablename = 'doc' AND attname = 'flat'`)).rows[0] as { avg_width: number };
    expect(width.avg_width / 10).toBeGreaterThan(15);
  });

  it('walks nested objects and arrays, each value once a row; a NULL takes one entry', async () => {
    // a, b, c, d (keys), 1 (a's value and d's first element: one entry), x, 2.
    expect((await whole('nested'))!.entries / 2000).toBeCloseTo(7, 5);
    // ['p', 'q', 'p']: two entries; a NULL one.
    expect((await whole('arr'))!.entries / 2000).toBeCloseTo(0.75 * 2 + 0.25, 5);
  });

  it('counts scalars with their paths under jsonb_path_ops, no keys', async () => {
    expect((await whole('flat', 'jsonb_path_ops'))!.entries / 2000).toBeCloseTo(2.5, 5);
    // 1 under a, x and 1 and 2 under b.
    expect((await whole('nested', 'jsonb_path_ops'))!.entries / 2000).toBeCloseTo(4, 5);
  });

  it('reads nothing for another type, another operator class or a partial index', async () => {
    expect(await whole('n')).toBeNull();
    expect(await whole('flat', 'my_jsonb_ops')).toBeNull();
    expect(await whole('flat', null, true)).toBeNull();
  });
});
