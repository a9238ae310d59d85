import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { changingColumnType } from './changing-column-type';
import { lintStatements } from './lint-statements';

describe('changing-column-type', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE order_items ALTER COLUMN quantity TYPE bigint', shopSnapshot(), [changingColumnType]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[changing-column-type\] /);
    expect(w.join('\n')).toContain('rewrites public.order_items');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE order_items ALTER COLUMN quantity SET DEFAULT 1', shopSnapshot(), [changingColumnType])).toEqual([]);
  });
});
