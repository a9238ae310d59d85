import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireConcurrentIndexCreation } from './require-concurrent-index-creation';
import { lintStatements } from './lint-statements';

describe('require-concurrent-index-creation', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE INDEX orders_total_idx ON orders (total)', shopSnapshot(), [requireConcurrentIndexCreation]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-concurrent-index-creation\] /);
    expect(w.join('\n')).toContain('CONCURRENTLY');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE INDEX CONCURRENTLY orders_total_idx ON orders (total)', shopSnapshot(), [requireConcurrentIndexCreation])).toEqual([]);
  });
});
