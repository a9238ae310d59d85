import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { requireStatementTimeout } from './require-statement-timeout';
import { lintStatements } from './lint-statements';

describe('require-statement-timeout', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ALTER COLUMN total SET NOT NULL', shopSnapshot(), [requireStatementTimeout]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[require-statement-timeout\] /);
    expect(w.join('\n')).toContain('statement_timeout');
  });

  it('stays quiet on the safe form', async () => {
    expect(
      await lintStatements("SET statement_timeout = '5min'; ALTER TABLE orders ALTER COLUMN total SET NOT NULL", shopSnapshot(), [requireStatementTimeout]),
    ).toEqual([]);
  });
});
