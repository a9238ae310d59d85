import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { constraintMissingNotValid } from './constraint-missing-not-valid';
import { lintStatements } from './lint-statements';

describe('constraint-missing-not-valid', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD CONSTRAINT total_pos CHECK (total > 0)', shopSnapshot(), [constraintMissingNotValid]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[constraint-missing-not-valid\] /);
    expect(w.join('\n')).toContain('NOT VALID');
  });

  it('stays quiet on the safe form', async () => {
    expect(
      await lintStatements('ALTER TABLE orders ADD CONSTRAINT total_pos CHECK (total > 0) NOT VALID', shopSnapshot(), [constraintMissingNotValid]),
    ).toEqual([]);
  });
});
