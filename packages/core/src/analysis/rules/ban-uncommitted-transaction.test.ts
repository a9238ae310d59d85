import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { banUncommittedTransaction } from './ban-uncommitted-transaction';
import { lintStatements } from './lint-statements';

describe('ban-uncommitted-transaction', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('BEGIN; ALTER TABLE orders ADD COLUMN n text', shopSnapshot(), [banUncommittedTransaction]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[ban-uncommitted-transaction\] /);
    expect(w.join('\n')).toContain('never followed by COMMIT');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('BEGIN; ALTER TABLE orders ADD COLUMN n text; COMMIT', shopSnapshot(), [banUncommittedTransaction])).toEqual([]);
  });
});
