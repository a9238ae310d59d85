import { describe, expect, it } from 'vitest';
import { parseTree } from '../pg/parser';
import { type BatchedStatement, batchedStatement } from './batched-statement';

const form = async (sql: string, key = 'id', size = 100): Promise<BatchedStatement | string> =>
  batchedStatement((await parseTree(sql)).stmts[0]!.stmt, key, size);

describe('the batched form of an UPDATE or DELETE', () => {
  it('adds the key range to the WHERE as tree nodes, kept apart from an OR, under the alias', async () => {
    const b = (await form('UPDATE public.orders AS o SET n = n + 1 WHERE o.a = 1 OR o.b IS NULL', 'id', 500)) as BatchedStatement;
    expect(b).toMatchObject({ kind: 'UPDATE', relation: 'public.orders', only: false, key: 'id' });
    expect(b.countSql).toBe('SELECT count(*) FROM public.orders AS o WHERE o.a = 1 OR o.b IS NULL');
    expect(b.upperSql(false)).toBe('SELECT o.id FROM public.orders AS o WHERE o.a = 1 OR o.b IS NULL ORDER BY o.id LIMIT 1 OFFSET 499');
    expect(b.upperSql(true)).toBe('SELECT o.id FROM public.orders AS o WHERE (o.a = 1 OR o.b IS NULL) AND o.id > $1 ORDER BY o.id LIMIT 1 OFFSET 499');
    expect(b.batchSql(true, true)).toBe('UPDATE public.orders AS o SET n = n + 1 WHERE (o.a = 1 OR o.b IS NULL) AND o.id > $1 AND o.id <= $2');
    expect(b.batchSql(false, true)).toBe('UPDATE public.orders AS o SET n = n + 1 WHERE (o.a = 1 OR o.b IS NULL) AND o.id <= $1');
    expect(b.batchSql(true, false)).toBe('UPDATE public.orders AS o SET n = n + 1 WHERE (o.a = 1 OR o.b IS NULL) AND o.id > $1');
    expect(b.remainderSql("it's")).toBe("UPDATE public.orders AS o SET n = n + 1 WHERE (o.a = 1 OR o.b IS NULL) AND o.id > 'it''s'");
  });

  it('steps over distinct keys when a USING list joins, keeps ONLY, and quotes the key', async () => {
    const b = (await form('DELETE FROM ONLY "Events" USING kinds k WHERE "Events".kind = k.id AND k.dead', 'Event Id', 10)) as BatchedStatement;
    expect(b).toMatchObject({ kind: 'DELETE', relation: '"Events"', only: true });
    expect(b.countSql).toBe('SELECT count(DISTINCT "Events"."Event Id") FROM ONLY "Events", kinds AS k WHERE "Events".kind = k.id AND k.dead');
    expect(b.upperSql(true)).toBe(
      'SELECT DISTINCT "Events"."Event Id" FROM ONLY "Events", kinds AS k WHERE ("Events".kind = k.id AND k.dead) AND "Events"."Event Id" > $1 ORDER BY "Events"."Event Id" LIMIT 1 OFFSET 9',
    );
    expect(b.batchSql(false, false)).toBe('DELETE FROM ONLY "Events" USING kinds AS k WHERE "Events".kind = k.id AND k.dead');
  });

  it.each([
    ['INSERT INTO t VALUES (1)', 'only an UPDATE or a DELETE'],
    ['WITH x AS (SELECT 1) UPDATE t SET a = 1', 'WITH'],
    ['UPDATE t SET id = id + 1', 'sets the key column id itself'],
    ['UPDATE t SET (a, id) = (1, 2)', 'sets the key column id itself'],
    ['UPDATE t SET a = (SELECT max(a) FROM t)', 'reads t again'],
    ['DELETE FROM public.t USING t AS u WHERE t.a = u.b', 'reads t again'],
    ['DELETE FROM t WHERE CURRENT OF c', 'CURRENT OF'],
  ])('refuses %s', async (sql, why) => {
    expect(await form(sql)).toContain(why);
  });

  it('allows a subquery on another table', async () => {
    expect(typeof (await form('UPDATE t SET total = (SELECT sum(q) FROM items i WHERE i.t_id = t.id)'))).toBe('object');
  });
});
