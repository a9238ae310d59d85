import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { lintStatements } from './lint-statements';
import { requireConcurrentPartitionDetach } from './require-concurrent-partition-detach';

describe('require-concurrent-partition-detach', () => {
  it('flags DETACH PARTITION without CONCURRENTLY', async () => {
    const w = await lintStatements('ALTER TABLE events DETACH PARTITION events_2024;', shopSnapshot(), [requireConcurrentPartitionDetach]);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^\[require-concurrent-partition-detach\] .*ACCESS EXCLUSIVE.* Safer: .*CONCURRENTLY/);
  });

  it('stays quiet on DETACH PARTITION CONCURRENTLY', async () => {
    expect(await lintStatements('ALTER TABLE events DETACH PARTITION events_2024 CONCURRENTLY;', shopSnapshot(), [requireConcurrentPartitionDetach])).toEqual(
      [],
    );
  });
});
