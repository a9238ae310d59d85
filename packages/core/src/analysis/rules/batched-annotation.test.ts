import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { batchedAnnotation } from './batched-annotation';
import { lintStatements } from './lint-statements';

const lint = (sql: string) => lintStatements(sql, shopSnapshot(), [batchedAnnotation]);

describe('batched-annotation', () => {
  it('says at analysis time what the executor would refuse', async () => {
    const cases: [string, RegExp][] = [
      ['-- dbops:batched key=id size=lots\nUPDATE orders SET total = 0', /size must be a whole number/],
      ['-- dbops:batched size=10\nUPDATE orders SET total = 0', /key=<column> is required/],
      ["-- dbops:batched key=total\nUPDATE orders SET status = 'paid'", /key column total may be NULL/],
      ['-- dbops:batched key=customer_id\nUPDATE orders SET total = 0', /customer_id is not unique on its own/],
      ['-- dbops:batched key=nope\nDELETE FROM orders', /orders has no column nope/],
      ['-- dbops:batched key=email\nUPDATE customers SET name = NULL', null as unknown as RegExp],
    ];
    for (const [sql, expected] of cases) {
      const found = await lint(sql);
      if (expected === null) expect(found, sql).toEqual([]);
      else {
        expect(found, sql).toHaveLength(1);
        expect(found[0], sql).toMatch(/^\[batched-annotation\] The dbops:batched comment before this statement cannot be followed: /);
        expect(found[0], sql).toMatch(expected);
      }
    }
  });

  it('refuses a statement shape the batches would change, offline too', async () => {
    const found = await lint('-- dbops:batched key=id\nWITH gone AS (SELECT id FROM customers) DELETE FROM orders WHERE customer_id IN (SELECT id FROM gone)');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/WITH is not batched/);
  });

  it('stays quiet without the comment, and on a batchable key', async () => {
    expect(await lint('UPDATE orders SET total = 0')).toEqual([]);
    expect(await lint('-- dbops:batched key=id size=1000\nUPDATE orders SET total = 0 WHERE total IS NULL')).toEqual([]);
  });
});
