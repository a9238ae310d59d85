import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { notInToNotExistsRule } from './not-in-to-not-exists';

it('rewrites when both sides are NOT NULL', async () => {
  expect(await rewrite(notInToNotExistsRule, 'SELECT c.id FROM customers c WHERE c.id NOT IN (SELECT customer_id FROM orders)')).toEqual([
    'SELECT c.id FROM customers AS c WHERE NOT (EXISTS (SELECT 1 FROM orders WHERE orders.customer_id = c.id))',
  ]);
});

it('leaves a nullable inner column, a nullable outer column and outer joins alone', async () => {
  expect(await rewrite(notInToNotExistsRule, 'SELECT c.id FROM customers c WHERE c.id NOT IN (SELECT customer_id FROM events)')).toEqual([]);
  expect(await rewrite(notInToNotExistsRule, 'SELECT c.id FROM customers c WHERE c.bio NOT IN (SELECT status FROM orders)')).toEqual([]);
  expect(
    await rewrite(notInToNotExistsRule, 'SELECT c.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id NOT IN (SELECT id FROM orders)'),
  ).toEqual([]);
});
