import { expect, it } from 'vitest';
import { catalogOf, node, ruleContext, table } from '../testing/fixtures';
import { foreignKeyWithoutIndexRule } from './foreign-key-without-index';

const customers = table('customers', 5000, { id: true, region: true });
const fk = [{ columns: ['customer_id'], referencedTable: 'public.customers', referencedColumns: ['id'] }];
const plan = node(
  'Hash Join',
  { 'Total Cost': 1700, 'Hash Cond': '(o.customer_id = c.id)' },
  node('Seq Scan', { 'Relation Name': 'orders', Alias: 'o', 'Plan Rows': 60_000 }),
  node('Hash', {}, node('Seq Scan', { 'Relation Name': 'customers', Alias: 'c', 'Plan Rows': 1250 })),
);

it('recommends an index on a foreign key the query joins through', async () => {
  const orders = table('orders', 60_000, { id: true, customer_id: true }, { foreignKeys: fk });
  const [c] = await foreignKeyWithoutIndexRule(ruleContext(plan, catalogOf(customers, orders)));
  expect(c!.keys.map((k) => k.column)).toEqual(['customer_id']);
  expect(c!.benefits[1]).toMatch(/Faster DELETE and key UPDATE on public\.customers/);
});

it('not for a join column that is not a foreign key, nor an indexed one', async () => {
  expect(await foreignKeyWithoutIndexRule(ruleContext(plan, catalogOf(customers, table('orders', 60_000, { id: true, customer_id: true }))))).toEqual([]);
  const indexed = table(
    'orders',
    60_000,
    { id: true, customer_id: true },
    { foreignKeys: fk, indexes: [{ name: 'x', columns: ['customer_id', 'id'], unique: false, predicate: null, method: 'btree' }] },
  );
  expect(await foreignKeyWithoutIndexRule(ruleContext(plan, catalogOf(customers, indexed)))).toEqual([]);
});
