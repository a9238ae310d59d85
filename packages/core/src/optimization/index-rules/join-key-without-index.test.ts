import { expect, it } from 'vitest';
import { catalogOf, node, ruleContext, table } from '../testing/fixtures';
import { joinKeyWithoutIndexRule } from './join-key-without-index';

const customers = table('customers', 5000, { id: true, email: true });
const orders = table('orders', 60_000, { id: true, customer_id: true });
const plan = (customerRows: number) =>
  node(
    'Hash Join',
    { 'Total Cost': 1700, 'Hash Cond': '(o.customer_id = c.id)' },
    node('Seq Scan', { 'Relation Name': 'orders', Alias: 'o', 'Total Cost': 1200, 'Plan Rows': 60_000 }),
    node(
      'Hash',
      { 'Plan Rows': customerRows },
      node('Seq Scan', { 'Relation Name': 'customers', Alias: 'c', 'Plan Rows': customerRows, Filter: `(c.email = 'x'::text)` }),
    ),
  );

it('indexes the big side of a join when the other side is small', async () => {
  const list = await joinKeyWithoutIndexRule(ruleContext(plan(1), catalogOf(customers, orders)));
  expect(list.map((c) => [c.table, c.keys[0]!.column])).toEqual([['orders', 'customer_id']]);
});

it('not when both sides are large, or the key is already indexed', async () => {
  expect(await joinKeyWithoutIndexRule(ruleContext(plan(5000), catalogOf(customers, orders)))).toEqual([]);
  const indexed = { ...orders, indexes: [{ name: 'o_c', columns: ['customer_id'], unique: false, predicate: null, method: 'btree' }] };
  expect(await joinKeyWithoutIndexRule(ruleContext(plan(1), catalogOf(customers, indexed)))).toEqual([]);
});
