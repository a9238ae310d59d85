import { expect, it } from 'vitest';
import { catalogOf, node, ruleContext, table } from '../testing/fixtures';
import { nestedLoopInnerSeqScanRule } from './nested-loop-inner-seq-scan';

const customers = table('customers', 5000, { id: true, email: true });
const events = table('events', 30_000, { id: true, customer_id: false, kind: true });

it('indexes the join column of a sequentially scanned inner side', async () => {
  const plan = node(
    'Nested Loop',
    { 'Total Cost': 900, 'Join Filter': '(c.id = e.customer_id)' },
    node('Seq Scan', { 'Relation Name': 'customers', Alias: 'c', 'Plan Rows': 3, Filter: `(c.email = 'x'::text)` }),
    node(
      'Materialize',
      {},
      node('Seq Scan', { 'Relation Name': 'events', Alias: 'e', 'Total Cost': 500, 'Plan Rows': 30_000, Filter: `(e.kind = 'click'::text)` }),
    ),
  );
  const [c] = await nestedLoopInnerSeqScanRule(ruleContext(plan, catalogOf(customers, events)));
  expect(c!.table).toBe('events');
  expect(c!.keys.map((k) => k.column)).toEqual(['kind', 'customer_id']);
  expect(c!.reason).toMatch(/once per outer row \(about 3 times\)/);
});

it('ignores a nested loop whose inner side is an index scan', async () => {
  const plan = node(
    'Nested Loop',
    { 'Total Cost': 900 },
    node('Seq Scan', { 'Relation Name': 'customers', Alias: 'c' }),
    node('Index Scan', { 'Relation Name': 'events', Alias: 'e', 'Index Cond': '(e.customer_id = c.id)' }),
  );
  expect(await nestedLoopInnerSeqScanRule(ruleContext(plan, catalogOf(customers, events)))).toEqual([]);
});
