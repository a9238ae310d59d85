import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../snapshot-builder';
import { shopSnapshot } from '../test-schema';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { closeSandboxSpare, takeSandboxDatabase } from './sandbox-pool';
import { pgliteSession } from './sandbox-session';
import { cloneDdl } from './clone-ddl';
import { insertSyntheticRows, insertSyntheticRowsTableByTable, syntheticRowsScript } from './synthetic-rows';

/** Serial keys read back through foreign keys, a self reference, fixed-width text, timestamps. */
function keyedSnapshot(): SchemaSnapshot {
  const s = buildSnapshot([
    {
      name: 'parents',
      columns: ["id integer not null default nextval('parents_id_seq'::regclass)", 'code text not null', 'ts timestamp with time zone'],
      primaryKey: ['id'],
      unique: [['code'], ['ts']],
    },
    {
      name: 'kids',
      columns: [
        'id bigint not null',
        'parent_id integer not null',
        'pcode character varying(20)',
        'pts timestamp with time zone',
        'boss_id bigint',
        'tag character(3)',
      ],
      primaryKey: ['id'],
      foreignKeys: [
        { columns: ['parent_id'], references: 'parents' },
        { columns: ['pcode'], references: 'parents', referencedColumns: ['code'] },
        { columns: ['pts'], references: 'parents', referencedColumns: ['ts'] },
        { columns: ['boss_id'], references: 'kids' },
      ],
    },
    {
      name: 'grandkids',
      columns: ['id bigint not null', 'kid_id bigint not null'],
      primaryKey: ['id'],
      foreignKeys: [{ columns: ['kid_id'], references: 'kids' }],
    },
  ]);
  s.sequences.push({ schema: 'public', name: 'parents_id_seq', data_type: 'integer', owned_by: 'public.parents.id' });
  return s;
}

async function filled(
  snapshot: SchemaSnapshot,
  insert: typeof insertSyntheticRows,
): Promise<{ result: Awaited<ReturnType<typeof insertSyntheticRows>>; rows: unknown[] }> {
  const db: PGlite = await takeSandboxDatabase();
  try {
    await db.exec(
      cloneDdl(snapshot)
        .steps.map((s) => `${s.sql};`)
        .join('\n'),
    );
    await db.exec('BEGIN');
    const result = await insert(pgliteSession(db), snapshot, 3);
    await db.exec('COMMIT');
    const rows: unknown[] = [];
    // now() defaults differ between two runs; everything else must be identical.
    for (const t of snapshot.tables.filter((x) => x.kind === 'table'))
      rows.push((await db.query(`SELECT * FROM ${t.schema}.${t.name} ORDER BY ctid`)).rows.map((r) => ({ ...(r as object), created_at: undefined })));
    return { result, rows };
  } finally {
    await db.close();
  }
}

describe('synthetic rows', () => {
  afterAll(closeSandboxSpare);

  it.each([
    ['shop', shopSnapshot],
    ['serial keys, self and multi-column references', keyedSnapshot],
  ])(
    'the one-script fast path inserts exactly what the table-by-table path inserts (%s)',
    async (_name, make) => {
      const snapshot = make();
      const fast = await filled(snapshot, insertSyntheticRows);
      const slow = await filled(snapshot, insertSyntheticRowsTableByTable);
      expect(fast.result.failures).toEqual([]);
      expect(fast).toEqual(slow);
    },
    120_000,
  );

  it('reads defaulted parent keys back by insertion order and repeats known values of the same type', () => {
    const sql = syntheticRowsScript(keyedSnapshot(), 3).sql;
    expect(sql).toContain('(SELECT id FROM public.parents ORDER BY ctid LIMIT 1 OFFSET 2)'); // serial
    expect(sql).toContain('(SELECT code FROM public.parents ORDER BY ctid LIMIT 1 OFFSET 2)'); // text -> varchar(20)
    expect(sql).not.toContain('(SELECT ts FROM'); // timestamptz -> timestamptz
    expect(sql.split(';\n')).toHaveLength(3); // one multi-row INSERT per table
  });

  it('falls back to table-by-table retries when a table rejects the script, keeping the other tables', async () => {
    const snapshot = buildSnapshot([
      { name: 'ok', columns: ['id bigint not null', 'name text'], primaryKey: ['id'] },
      {
        name: 'picky',
        columns: ['id bigint not null', 'amount integer'],
        primaryKey: ['id'],
        checks: [{ name: 'picky_amount', definition: 'CHECK ((amount > 100))', columns: ['amount'] }],
      },
      {
        name: 'never',
        columns: ['id bigint not null', 'v integer not null'],
        primaryKey: ['id'],
        checks: [{ name: 'never_v', definition: 'CHECK ((v < 0))', columns: ['v'] }],
      },
    ]);
    const { result } = await filled(snapshot, insertSyntheticRows);
    // picky takes its rows with the optional column NULL; never takes none.
    expect(result).toEqual({ inserted: 6, failures: [{ table: 'public.never', error: expect.stringMatching(/violates check constraint "never_v"/) }] });
  }, 120_000);
});
