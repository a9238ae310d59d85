import { describe, expect, it } from 'vitest';
import { parseStatements } from '../parse-statements';
import { groupedInsert } from './grouped-rows';

const groupedOf = async (sql: string) => groupedInsert((await parseStatements(sql))[0]!);

describe("an aggregating INSERT's groups", () => {
  it('are read off one table grouped by its keys: a position stands for its select-list entry, the alias and WHERE kept', async () => {
    expect(await groupedOf("INSERT INTO d SELECT date_trunc('day', at), kind, count(*) FROM app.ev e WHERE e.kind > 2 GROUP BY 1, e.kind")).toEqual({
      table: 'app.ev',
      alias: 'e',
      keys: ["(date_trunc('day', at))", '(e.kind)'],
      where: 'e.kind > 2',
    });
    expect(await groupedOf('INSERT INTO d SELECT a, count(*) FROM src GROUP BY a')).toEqual({ table: 'public.src', alias: null, keys: ['(a)'], where: null });
  });

  it('are not read for a join, HAVING, DISTINCT, LIMIT, a set operation, grouping sets, no GROUP BY, or another statement', async () => {
    for (const sql of [
      'INSERT INTO d SELECT a.k, count(*) FROM a JOIN b ON a.id = b.id GROUP BY a.k',
      'INSERT INTO d SELECT k, count(*) FROM a GROUP BY k HAVING count(*) > 1',
      'INSERT INTO d SELECT DISTINCT k, count(*) FROM a GROUP BY k',
      'INSERT INTO d SELECT k, count(*) FROM a GROUP BY k LIMIT 10',
      'INSERT INTO d SELECT k, count(*) FROM a GROUP BY k UNION SELECT k, 1 FROM b',
      'INSERT INTO d SELECT k, j, count(*) FROM a GROUP BY ROLLUP (k, j)',
      'INSERT INTO d SELECT k FROM a',
      'UPDATE a SET k = 1',
    ])
      expect(await groupedOf(sql), sql).toBeNull();
  });
});
