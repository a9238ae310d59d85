import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banCharField } from './ban-char-field';
import { lintStatements } from './lint-statements';

describe('ban-char-field', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE TABLE t (code char(3))', shopSnapshot(), [banCharField]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-char-field\] /);
    expect(w.join('\n')).toContain('pads');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE t (code text)', shopSnapshot(), [banCharField])).toEqual([]);
  });
});
