import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingRequiredField } from './adding-required-field';
import { lintStatements } from './lint-statements';

describe('adding-required-field', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD COLUMN region text NOT NULL', shopSnapshot(), [addingRequiredField]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-required-field\] /);
    expect(w.join('\n')).toContain('NOT NULL without a DEFAULT');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements("ALTER TABLE orders ADD COLUMN region text NOT NULL DEFAULT 'eu'", shopSnapshot(), [addingRequiredField])).toEqual([]);
  });
});
