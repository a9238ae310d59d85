import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { identifierTooLong } from './identifier-too-long';
import { lintStatements } from './lint-statements';

describe('identifier-too-long', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('CREATE TABLE aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (id bigint)', shopSnapshot(), [
      identifierTooLong,
    ]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[identifier-too-long\] /);
    expect(w.join('\n')).toContain('63');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('CREATE TABLE short_name (id bigint)', shopSnapshot(), [identifierTooLong])).toEqual([]);
  });

  // The quick test that most statements hold no long name reads short statements and long ones
  // (over 20,000 characters) differently: both must see a long name anywhere, and only then.
  for (const size of [200, 19_000, 30_000])
    it(`finds a long name anywhere in a statement of about ${size} characters, and only a long one`, async () => {
      const filler = (n: number): string => Array.from({ length: n }, (_, i) => `c${i} int`).join(', ');
      const cols = filler(Math.round(size / 9));
      const long = 'x'.repeat(64);
      for (const sql of [
        `CREATE TABLE t (${long} int, ${cols})`,
        `CREATE TABLE t (${cols}, ${long} int)`,
        `CREATE TABLE t (${cols}, "${'q'.repeat(64)}" int)`,
      ]) {
        const w = await lintStatements(sql, shopSnapshot(), [identifierTooLong]);
        expect(w).toHaveLength(1);
      }
      expect(await lintStatements(`CREATE TABLE t (${cols}, ${'y'.repeat(63)} int)`, shopSnapshot(), [identifierTooLong])).toEqual([]);
    });

  it('reads a statement of megabytes without running out of stack', async () => {
    const body = 'a,'.repeat(5_000_000);
    expect(await lintStatements(`CREATE FUNCTION f() RETURNS void LANGUAGE sql AS $$ ${body} $$`, shopSnapshot(), [identifierTooLong])).toEqual([]);
  });
});
