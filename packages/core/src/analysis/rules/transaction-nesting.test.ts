import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { transactionNesting } from './transaction-nesting';
import { lintStatements } from './lint-statements';

describe('transaction-nesting', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('BEGIN; BEGIN; COMMIT', shopSnapshot(), [transactionNesting]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[transaction-nesting\] /);
    expect(w.join('\n')).toContain('nested');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('BEGIN; SELECT 1; COMMIT', shopSnapshot(), [transactionNesting])).toEqual([]);
  });
});
