import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { dropReferencedTable } from './drop-referenced-table';
import { lintStatements } from './lint-statements';

describe('drop-referenced-table', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('DROP TABLE orders', shopSnapshot(), [dropReferencedTable]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[drop-referenced-table\] /);
    expect(w.join('\n')).toContain('public.order_items');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('DROP TABLE shipments', shopSnapshot(), [dropReferencedTable])).toEqual([]);
  });
});
