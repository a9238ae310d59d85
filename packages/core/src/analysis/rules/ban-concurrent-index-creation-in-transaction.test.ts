import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banConcurrentIndexCreationInTransaction } from './ban-concurrent-index-creation-in-transaction';
import { lintStatements } from './lint-statements';

describe('ban-concurrent-index-creation-in-transaction', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('BEGIN; CREATE INDEX CONCURRENTLY i ON orders (total); COMMIT', shopSnapshot(), [banConcurrentIndexCreationInTransaction]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-concurrent-index-creation-in-transaction\] /);
    expect(w.join('\n')).toContain('will fail');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE INDEX CONCURRENTLY i ON orders (total)', shopSnapshot(), [banConcurrentIndexCreationInTransaction])).toEqual([]);
  });
});
