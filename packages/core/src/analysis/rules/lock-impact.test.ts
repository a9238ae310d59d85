import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { lockImpact } from './lock-impact';
import { lintStatements } from './lint-statements';

describe('lock-impact', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ALTER COLUMN total TYPE numeric(14,2)', shopSnapshot(), [lockImpact]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[lock-impact\] /);
    expect(w.join('\n')).toContain('blocks reads and writes');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('SELECT * FROM orders', shopSnapshot(), [lockImpact])).toEqual([]);
  });
});
