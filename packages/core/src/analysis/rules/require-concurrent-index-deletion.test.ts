import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireConcurrentIndexDeletion } from './require-concurrent-index-deletion';
import { lintStatements } from './lint-statements';

describe('require-concurrent-index-deletion', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('DROP INDEX orders_customer_id_idx', shopSnapshot(), [requireConcurrentIndexDeletion]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-concurrent-index-deletion\] /);
    expect(w.join('\n')).toContain('CONCURRENTLY');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('DROP INDEX CONCURRENTLY orders_customer_id_idx', shopSnapshot(), [requireConcurrentIndexDeletion])).toEqual([]);
  });
});
