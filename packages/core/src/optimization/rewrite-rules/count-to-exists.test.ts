import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { countToExistsRule } from './count-to-exists';

it('count(*) > 0 becomes EXISTS and count(*) = 0 becomes NOT EXISTS', async () => {
  expect(await rewrite(countToExistsRule, 'SELECT id FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) > 0')).toEqual([
    'SELECT id FROM customers AS c WHERE EXISTS (SELECT 1 FROM orders AS o WHERE o.customer_id = c.id)',
  ]);
  expect(await rewrite(countToExistsRule, 'SELECT id FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) = 0')).toEqual([
    'SELECT id FROM customers AS c WHERE NOT (EXISTS (SELECT 1 FROM orders AS o WHERE o.customer_id = c.id))',
  ]);
});

it('count(col) keeps its NOT NULL meaning; other comparisons are left alone', async () => {
  expect(await rewrite(countToExistsRule, 'SELECT id FROM customers c WHERE (SELECT count(e.customer_id) FROM events e) >= 1')).toEqual([
    'SELECT id FROM customers AS c WHERE EXISTS (SELECT 1 FROM events AS e WHERE e.customer_id IS NOT NULL)',
  ]);
  expect(await rewrite(countToExistsRule, 'SELECT id FROM customers c WHERE (SELECT count(*) FROM orders) > 5')).toEqual([]);
});

it('finds the comparison inside an AND list', async () => {
  expect(
    await rewrite(countToExistsRule, `SELECT id FROM customers c WHERE c.region = 'north' AND (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) > 0`),
  ).toEqual([`SELECT id FROM customers AS c WHERE c.region = 'north' AND EXISTS (SELECT 1 FROM orders AS o WHERE o.customer_id = c.id)`]);
});
