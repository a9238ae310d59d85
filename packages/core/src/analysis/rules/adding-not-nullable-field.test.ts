import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingNotNullableField } from './adding-not-nullable-field';
import { lintStatements } from './lint-statements';

describe('adding-not-nullable-field', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ALTER COLUMN total SET NOT NULL', shopSnapshot(), [addingNotNullableField]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-not-nullable-field\] /);
    expect(w.join('\n')).toContain('IS NOT NULL) NOT VALID');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE orders ALTER COLUMN total DROP NOT NULL', shopSnapshot(), [addingNotNullableField])).toEqual([]);
  });
});
