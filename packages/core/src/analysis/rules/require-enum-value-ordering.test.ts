import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireEnumValueOrdering } from './require-enum-value-ordering';
import { lintStatements } from './lint-statements';

describe('require-enum-value-ordering', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements("ALTER TYPE order_status ADD VALUE 'refunded'", shopSnapshot(), [requireEnumValueOrdering]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-enum-value-ordering\] /);
    expect(w.join('\n')).toContain('declaration order');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements("ALTER TYPE order_status ADD VALUE 'refunded' AFTER 'paid'", shopSnapshot(), [requireEnumValueOrdering])).toEqual([]);
  });
});
