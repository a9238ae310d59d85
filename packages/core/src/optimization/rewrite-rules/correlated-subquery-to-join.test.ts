import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { correlatedSubqueryToJoinRule } from './correlated-subquery-to-join';

it('turns a correlated aggregate into a grouped LEFT JOIN', async () => {
  expect(
    await rewrite(
      correlatedSubqueryToJoinRule,
      `SELECT c.id, (SELECT max(o.created_at) FROM orders o WHERE o.customer_id = c.id AND o.qty > 1) AS last FROM customers c`,
    ),
  ).toEqual([
    'SELECT c.id, dbops_s1.v AS last FROM customers AS c LEFT JOIN ( SELECT o.customer_id AS k, max(o.created_at) AS v FROM orders AS o WHERE o.qty > 1 GROUP BY o.customer_id ) AS dbops_s1 ON dbops_s1.k = c.id',
  ]);
});

it('leaves non-aggregate subqueries and extra correlation alone', async () => {
  expect(await rewrite(correlatedSubqueryToJoinRule, `SELECT c.id, (SELECT o.id FROM orders o WHERE o.customer_id = c.id LIMIT 1) FROM customers c`)).toEqual(
    [],
  );
  expect(
    await rewrite(
      correlatedSubqueryToJoinRule,
      `SELECT c.id, (SELECT count(*) FROM orders o WHERE o.customer_id = c.id AND o.status = c.region) FROM customers c`,
    ),
  ).toEqual([]);
});
