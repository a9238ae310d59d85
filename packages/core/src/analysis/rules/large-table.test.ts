import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { largeTable } from './large-table';
import { lintStatements } from './lint-statements';

describe('large-table', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE INDEX i ON events (created_at)', shopSnapshot(), [largeTable]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[large-table\] /);
    expect(w.join('\n')).toContain('is large');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE INDEX i ON products (sku)', shopSnapshot(), [largeTable])).toEqual([]);
  });
});
