import { expect, it } from 'vitest';
import { candidatesFromSuggestions } from './suggestion-candidates';
import { catalogOf, table } from './testing/fixtures';

const catalog = catalogOf(table('orders', 1000, { id: true, status: true, created_at: true }));

it('keeps known columns and safe expressions, drops unknown tables, columns and injected SQL', async () => {
  const out = await candidatesFromSuggestions(
    [
      { table: 'orders', columns: ['status', 'created_at DESC'], where: null, reason: 'ok' },
      { table: 'public.orders', columns: ['lower(status)'], where: 'created_at IS NOT NULL', reason: 'expr' },
      { table: 'nope', columns: ['id'], where: null, reason: 'unknown table' },
      { table: 'orders', columns: ['ghost'], where: null, reason: 'unknown column' },
      { table: 'orders', columns: ['id); DROP TABLE orders; --'], where: null, reason: 'injection' },
      { table: 'orders', columns: ['id'], where: '(SELECT true)', reason: 'subquery predicate' },
    ],
    catalog,
  );
  expect(out.map((c) => [c.keys.map((k) => `${k.column}${k.descending ? ' DESC' : ''}`), c.predicate, c.detection_method])).toEqual([
    [['status', 'created_at DESC'], null, 'llm_suggested'],
    [['lower(status)'], 'created_at IS NOT NULL', 'llm_suggested'],
  ]);
});
