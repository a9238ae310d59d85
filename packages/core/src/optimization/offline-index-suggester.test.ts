import { expect, it } from 'vitest';
import { OfflineIndexSuggester } from './offline-index-suggester';
import { table } from './testing/fixtures';

it('proposes equality, then range or ORDER BY columns per table, and unindexed join columns', async () => {
  const orders = table('orders', 1000, { id: true, customer_id: true, status: true, created_at: true });
  const customers = table(
    'customers',
    100,
    { id: true, email: true },
    { indexes: [{ name: 'pk', columns: ['id'], unique: true, predicate: null, method: 'btree' }] },
  );
  const s = await new OfflineIndexSuggester().suggest({
    sql: `SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'x' AND o.created_at > now() ORDER BY o.created_at DESC`,
    tables: [orders, customers],
    planText: '',
    documents: [],
  });
  expect(s.map((x) => [x.table, x.columns])).toEqual([
    ['orders', ['status', 'created_at DESC']],
    ['orders', ['customer_id']],
  ]);
});
