import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { lintStatements } from './lint-statements';
import { requireConcurrentReindex } from './require-concurrent-reindex';

describe('require-concurrent-reindex', () => {
  it('flags REINDEX of a table or an index without CONCURRENTLY', async () => {
    const w = await lintStatements('REINDEX TABLE orders; REINDEX INDEX orders_customer_id_idx;', shopSnapshot(), [requireConcurrentReindex]);
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^\[require-concurrent-reindex\] .*public\.orders.* Safer: REINDEX \.\.\. CONCURRENTLY/);
  });

  it('stays quiet on CONCURRENTLY and on REINDEX SYSTEM, which has no such form', async () => {
    expect(await lintStatements('REINDEX TABLE CONCURRENTLY orders; REINDEX SYSTEM;', shopSnapshot(), [requireConcurrentReindex])).toEqual([]);
  });
});
