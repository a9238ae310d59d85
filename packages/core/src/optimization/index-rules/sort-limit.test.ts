import { expect, it } from 'vitest';
import { catalogOf, node, ruleContext, table } from '../testing/fixtures';
import { sortLimitRule } from './sort-limit';

const orders = table('orders', 100_000, { id: true, customer_id: true, created_at: true });
const sorted = (parent: string, sortFields = {}) =>
  node(
    parent,
    { 'Total Cost': 2100 },
    node(
      'Sort',
      { 'Total Cost': 2100, 'Sort Key': ['o.created_at DESC', 'o.id'], ...sortFields },
      node('Seq Scan', { 'Relation Name': 'orders', Alias: 'o', 'Total Cost': 2000, Filter: '(o.customer_id = 7)' }),
    ),
  );

it('a sort feeding a LIMIT: equality columns, then ORDER BY with direction', async () => {
  const [c] = await sortLimitRule(ruleContext(sorted('Limit'), catalogOf(orders)));
  expect(c!.keys).toEqual([
    { column: 'customer_id', isExpression: false },
    { column: 'created_at', isExpression: false, descending: true },
    { column: 'id', isExpression: false, descending: false },
  ]);
});

it('a sort spilling to disk, without a LIMIT', async () => {
  const [c] = await sortLimitRule(ruleContext(sorted('Result', { 'Sort Space Type': 'Disk', 'Sort Space Used': 4096 }), catalogOf(orders), true));
  expect(c!.reason).toMatch(/spills 4,096 kB to disk/);
});

it('ignores an in-memory sort without a LIMIT and sorts over several tables', async () => {
  expect(await sortLimitRule(ruleContext(sorted('Result'), catalogOf(orders)))).toEqual([]);
  const multi = node(
    'Limit',
    { 'Total Cost': 2100 },
    node(
      'Sort',
      { 'Total Cost': 2100, 'Sort Key': ['o.created_at', 'c.name'] },
      node('Seq Scan', { 'Relation Name': 'orders', Alias: 'o', 'Total Cost': 2000 }),
    ),
  );
  expect(await sortLimitRule(ruleContext(multi, catalogOf(orders)))).toEqual([]);
});
