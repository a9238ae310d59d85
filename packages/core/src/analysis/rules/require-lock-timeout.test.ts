import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireLockTimeout } from './require-lock-timeout';
import { lintStatements } from './lint-statements';

describe('require-lock-timeout', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD COLUMN note text', shopSnapshot(), [requireLockTimeout]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-lock-timeout\] /);
    expect(w.join('\n')).toContain('lock_timeout');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('SET lock_timeout = \'2s\'; ALTER TABLE orders ADD COLUMN note text', shopSnapshot(), [requireLockTimeout])).toEqual([]);
  });
});
