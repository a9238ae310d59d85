import { describe, expect, it } from 'vitest';
import { parseStatements } from '../parse-statements';
import { catalogWrite } from './catalog-write';

const read = async (sql: string, userTables: string[] = []) => catalogWrite((await parseStatements(sql))[0]!.stmt, new Set(userTables), ['public']);

describe('catalogWrite', () => {
  it('reads the index-flag switch by relname subquery or regclass', async () => {
    expect(await read(`UPDATE pg_index SET indisready = FALSE WHERE indrelid = (SELECT oid FROM pg_class WHERE relname = 'comment')`)).toEqual({
      kind: 'index_flags',
      catalog: 'pg_catalog.pg_index',
      set: [{ column: 'indisready', value: false }],
      by: 'indrelid',
      relation: { relname: 'comment' },
    });
    expect(await read(`UPDATE pg_catalog.pg_index SET indisvalid = 't'::boolean, indisready = true WHERE indexrelid = 'app.idx'::regclass`)).toMatchObject({
      kind: 'index_flags',
      set: [
        { column: 'indisvalid', value: true },
        { column: 'indisready', value: true },
      ],
      by: 'indexrelid',
      relation: { regclass: 'app.idx' },
    });
  });

  it('refuses every other write to a system catalog', async () => {
    for (const sql of [
      `UPDATE pg_index SET indisready = false WHERE indrelid = 'x'::regclass RETURNING *`,
      `UPDATE pg_index SET indisready = false WHERE indrelid = 'x'::regclass AND true`,
      `UPDATE pg_index SET indisready = false WHERE indrelid = (SELECT oid FROM pg_class WHERE relname = lower('X'))`,
      `UPDATE pg_index SET indisready = false WHERE indrelid = (SELECT oid FROM pg_class c WHERE relname = 'x' LIMIT 1)`,
      `UPDATE pg_index SET indisprimary = false WHERE indrelid = 'x'::regclass`,
      `UPDATE pg_index SET indisready = NOT indisready WHERE indrelid = 'x'::regclass`,
      `UPDATE pg_index i SET indisready = false FROM pg_class c WHERE i.indrelid = c.oid`,
      `WITH x AS (SELECT 1) UPDATE pg_index SET indisready = false WHERE indrelid = 'x'::regclass`,
      `INSERT INTO pg_catalog.pg_description VALUES (1, 2, 0, 'x')`,
      `DELETE FROM pg_trigger`,
    ])
      expect((await read(sql)).kind, sql).toBe('refused');
  });

  it('leaves user tables alone, even named pg_something', async () => {
    expect((await read(`UPDATE comment SET x = 1`)).kind).toBe('none');
    expect((await read(`UPDATE pg_stuff SET x = 1`, ['public.pg_stuff'])).kind).toBe('none');
    expect((await read(`UPDATE app.pg_index SET x = 1`)).kind).toBe('none');
    expect((await read(`SELECT * FROM pg_index`)).kind).toBe('none');
  });
});
