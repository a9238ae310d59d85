import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { dmlWithoutWhere } from './dml-without-where';
import { lintStatements } from './lint-statements';

describe('dml-without-where', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('UPDATE orders SET total = 0', shopSnapshot(), [dmlWithoutWhere]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[dml-without-where\] /);
    expect(w.join('\n')).toContain('every row');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('UPDATE orders SET total = 0 WHERE id = 7', shopSnapshot(), [dmlWithoutWhere])).toEqual([]);
  });
});
