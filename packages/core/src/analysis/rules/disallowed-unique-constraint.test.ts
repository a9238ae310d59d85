import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { disallowedUniqueConstraint } from './disallowed-unique-constraint';
import { lintStatements } from './lint-statements';

describe('disallowed-unique-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE products ADD CONSTRAINT products_sku_key UNIQUE (sku)', shopSnapshot(), [disallowedUniqueConstraint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[disallowed-unique-constraint\] /);
    expect(w.join('\n')).toContain('USING INDEX');
  });

  it('stays quiet on the safe form', async () => {
    expect(
      await lintStatements('ALTER TABLE products ADD CONSTRAINT products_sku_key UNIQUE USING INDEX products_sku_idx', shopSnapshot(), [
        disallowedUniqueConstraint,
      ]),
    ).toEqual([]);
  });
});

describe('disallowed-unique-constraint, inline', () => {
  it('flags ADD COLUMN ... UNIQUE on an existing table', async () => {
    const w = await lintStatements('ALTER TABLE customers ADD COLUMN handle text UNIQUE', shopSnapshot(), [disallowedUniqueConstraint]);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^\[disallowed-unique-constraint\] /);
  });
});
