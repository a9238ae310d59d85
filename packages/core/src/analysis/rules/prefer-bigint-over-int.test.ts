import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { preferBigintOverInt } from './prefer-bigint-over-int';
import { lintStatements } from './lint-statements';

describe('prefer-bigint-over-int', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE TABLE t (id integer)', shopSnapshot(), [preferBigintOverInt]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[prefer-bigint-over-int\] /);
    expect(w.join('\n')).toContain('2,147,483,647');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE t (id bigint)', shopSnapshot(), [preferBigintOverInt])).toEqual([]);
  });
});
