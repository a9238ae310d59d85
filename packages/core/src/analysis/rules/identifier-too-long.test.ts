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
});
