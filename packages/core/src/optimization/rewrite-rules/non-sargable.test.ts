import { expect, it } from 'vitest';
import { rewrite } from '../testing/rewrite-fixtures';
import { nonSargableRule } from './non-sargable';

it('date(ts) = D and ts::date = D become a half-open range', async () => {
  expect(await rewrite(nonSargableRule, `SELECT id FROM orders WHERE created_at::date = '2024-01-05' AND qty = 1`)).toEqual([
    `SELECT id FROM orders WHERE created_at >= '2024-01-05'::date AND created_at < ('2024-01-05'::date + 1) AND qty = 1`,
  ]);
});

it('col + k = c and col - k = c move the constant', async () => {
  expect(await rewrite(nonSargableRule, `SELECT id FROM orders WHERE qty - 2 = 5`)).toEqual(['SELECT id FROM orders WHERE qty = (5 + 2)']);
});

it('leaves text columns, non-constant sides and plain predicates alone', async () => {
  expect(await rewrite(nonSargableRule, `SELECT id FROM customers WHERE date(email) = '2024-01-05'`)).toEqual([]);
  expect(await rewrite(nonSargableRule, `SELECT id FROM orders WHERE qty + 1 = id`)).toEqual([]);
  expect(await rewrite(nonSargableRule, `SELECT id FROM orders WHERE qty = 1`)).toEqual([]);
});
