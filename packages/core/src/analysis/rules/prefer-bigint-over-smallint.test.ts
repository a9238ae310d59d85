import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { preferBigintOverSmallint } from './prefer-bigint-over-smallint';
import { lintStatements } from './lint-statements';

describe('prefer-bigint-over-smallint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE TABLE t (n smallint)', shopSnapshot(), [preferBigintOverSmallint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[prefer-bigint-over-smallint\] /);
    expect(w.join('\n')).toContain('32,767');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE t (n bigint)', shopSnapshot(), [preferBigintOverSmallint])).toEqual([]);
  });
});
