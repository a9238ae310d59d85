import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { insertSource } from './inserted-rows';
import { snapshotFeatures } from './snapshot-features';

const sourceOf = async (sql: string) => insertSource((await parseStatements(sql))[0]!);

describe("an INSERT's rows", () => {
  it('are its VALUES list, DEFAULT VALUES one row, a one-table SELECT that table, anything else a guess', async () => {
    expect(await sourceOf("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")).toEqual({ kind: 'values', rows: 3 });
    expect(await sourceOf('INSERT INTO t DEFAULT VALUES')).toEqual({ kind: 'values', rows: 1 });
    expect(await sourceOf('INSERT INTO t SELECT * FROM app.src')).toEqual({ kind: 'table', table: 'app.src', filtered: false });
    expect(await sourceOf('INSERT INTO t SELECT id FROM src WHERE id % 20 = 0')).toEqual({ kind: 'table', table: 'public.src', filtered: true });
    // A guess, with the tables its top-level FROM names.
    for (const [sql, reads] of [
      ['INSERT INTO t SELECT generate_series(1, 1000)', []],
      ['INSERT INTO t SELECT a.id FROM a JOIN app.b ON a.id = b.id', ['public.a', 'app.b']],
      ['INSERT INTO t SELECT id FROM a UNION SELECT id FROM b', []],
      ['INSERT INTO t SELECT DISTINCT id FROM a', ['public.a']],
      ['INSERT INTO t SELECT k, count(*) FROM a GROUP BY k', ['public.a']],
      ['INSERT INTO t SELECT id FROM a LIMIT 10', ['public.a']],
    ] as const)
      expect(await sourceOf(sql), sql).toEqual({ kind: 'unknown', reads });
    expect(await sourceOf('UPDATE t SET a = 1')).toBeNull();
  });

  it("are not the target's own rows: a one-row INSERT into a large table is costed as one row", async () => {
    const snapshot = buildSnapshot([{ name: 'big', columns: ['id bigint not null', 'note text'], primaryKey: ['id'], rows: 10_000_000 }]);
    const index = buildSchemaIndex(snapshot);
    const touched = async (sql: string) => {
      const parsed = await parseStatements(sql);
      const facts = analyzeStatements(parsed, index).map((i) => i.facts);
      return snapshotFeatures(parsed[0]!, facts[0]!, index.table('public.big'), undefined)!.features.touchedRows;
    };
    expect(await touched("INSERT INTO big VALUES (1, 'x')")).toBe(1);
    expect(await touched('INSERT INTO big SELECT id + 1, note FROM big')).toBeLessThan(10_000_000);
    expect(await touched("UPDATE big SET note = 'y'")).toBe(10_000_000);
  });
});
