import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetServerUrl } from '../../../../test/support/scratch-database';
import { PgliteStore } from './pglite-store';
import { vectorParam } from './vector-param';
import { binaryArrayParam } from './binary-array-param';

describe('binaryArrayParam', () => {
  let store: PgliteStore;
  let server: pg.Client;
  beforeAll(async () => {
    store = await PgliteStore.open();
    server = new pg.Client({ connectionString: targetServerUrl() });
    await server.connect();
  });
  afterAll(async () => {
    await store.close();
    await server.end();
  });

  it('sends vectors that PGlite reads back element by element, in order', async () => {
    const vectorOid = Number((await store.query<{ oid: number }>(`SELECT 'vector'::regtype::oid AS oid`)).rows[0]!.oid);
    const vectors = [
      [1, -2.5, 3],
      [0.125, 0, -0],
      [1e-3, 42, 7],
    ];
    const res = await store.query<{ v: string }>('SELECT e::text AS v FROM unnest($1::vector[]) WITH ORDINALITY AS u(e, ord) ORDER BY ord', [
      binaryArrayParam(
        vectorOid,
        vectors.map((v) => vectorParam(v)),
      ),
    ]);
    expect(res.rows.map((r) => r.v)).toEqual(['[1,-2.5,3]', '[0.125,0,-0]', '[0.001,42,7]']);
  });

  it('is the array format of a PostgreSQL server, which checks the element type', async () => {
    const int4 = (n: number): Buffer => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(n);
      return b;
    };
    const ints = await server.query<{ a: number[] }>('SELECT $1::int4[] AS a', [binaryArrayParam(23, [int4(7), int4(-1), int4(2 ** 31 - 1)])]);
    expect(ints.rows[0]!.a).toEqual([7, -1, 2 ** 31 - 1]);
    const texts = await server.query<{ a: string[] }>('SELECT $1::text[] AS a', [
      binaryArrayParam(
        25,
        ['a,b', 'ü "q"', ''].map((s) => Buffer.from(s)),
      ),
    ]);
    expect(texts.rows[0]!.a).toEqual(['a,b', 'ü "q"', '']);
    await expect(server.query('SELECT $1::int4[] AS a', [binaryArrayParam(25, [int4(7)])])).rejects.toThrow(/element type/);
    expect(() => binaryArrayParam(0, [])).toThrow(/not a type oid/);
  });
});
