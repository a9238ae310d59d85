import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { preferTextField } from './prefer-text-field';
import { lintStatements } from './lint-statements';

describe('prefer-text-field', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE TABLE t (name varchar(40))', shopSnapshot(), [preferTextField]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[prefer-text-field\] /);
    expect(w.join('\n')).toContain('char_length');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE t (name text)', shopSnapshot(), [preferTextField])).toEqual([]);
  });
});
