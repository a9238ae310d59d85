import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { preferTimestamptz } from './prefer-timestamptz';
import { lintStatements } from './lint-statements';

describe('prefer-timestamptz', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD COLUMN shipped_at timestamp', shopSnapshot(), [preferTimestamptz]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[prefer-timestamptz\] /);
    expect(w.join('\n')).toContain('timestamptz');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE orders ADD COLUMN shipped_at timestamptz', shopSnapshot(), [preferTimestamptz])).toEqual([]);
  });
});
