import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { orToUnionAllRule } from './or-to-union-all';

it('splits an OR across columns into branches that exclude earlier ones', async () => {
  expect(await rewrite(orToUnionAllRule, `SELECT id FROM orders WHERE customer_id = 1 OR status = 'x' OR qty = 3`)).toEqual([
    `(SELECT id FROM orders WHERE customer_id = 1 UNION ALL SELECT id FROM orders WHERE status = 'x' AND NOT (COALESCE(customer_id = 1, false))) UNION ALL SELECT id FROM orders WHERE qty = 3 AND NOT (COALESCE(customer_id = 1, false)) AND NOT (COALESCE(status = 'x', false))`,
  ]);
});

it('leaves one-column ORs, ORDER BY/LIMIT, DISTINCT and aggregates alone', async () => {
  expect(await rewrite(orToUnionAllRule, `SELECT id FROM orders WHERE qty = 1 OR qty = 2`)).toEqual([]);
  expect(await rewrite(orToUnionAllRule, `SELECT id FROM orders WHERE qty = 1 OR id = 2 ORDER BY id LIMIT 5`)).toEqual([]);
  expect(await rewrite(orToUnionAllRule, `SELECT DISTINCT id FROM orders WHERE qty = 1 OR id = 2`)).toEqual([]);
  expect(await rewrite(orToUnionAllRule, `SELECT count(*) FROM orders WHERE qty = 1 OR id = 2`)).toEqual([]);
});
