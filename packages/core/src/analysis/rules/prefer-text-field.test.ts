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

describe('prefer-text-field on ALTER COLUMN TYPE', () => {
  it('flags retyping a column to varchar(n)', async () => {
    const w = await lintStatements('ALTER TABLE customers ALTER COLUMN name TYPE varchar(200)', shopSnapshot(), [preferTextField]);
    expect(w).toEqual([expect.stringMatching(/^\[prefer-text-field\] Column name is varchar\(200\)/)]);
    expect(await lintStatements('ALTER TABLE customers ALTER COLUMN name TYPE text', shopSnapshot(), [preferTextField])).toEqual([]);
  });
});
