import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banTruncateCascade } from './ban-truncate-cascade';
import { lintStatements } from './lint-statements';

describe('ban-truncate-cascade', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('TRUNCATE customers CASCADE', shopSnapshot(), [banTruncateCascade]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-truncate-cascade\] /);
    expect(w.join('\n')).toContain('CASCADE');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('TRUNCATE events', shopSnapshot(), [banTruncateCascade])).toEqual([]);
  });
});
