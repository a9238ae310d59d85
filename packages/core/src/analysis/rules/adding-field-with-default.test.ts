import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingFieldWithDefault } from './adding-field-with-default';
import { lintStatements } from './lint-statements';

describe('adding-field-with-default', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE orders ADD COLUMN ref uuid DEFAULT gen_random_uuid()', shopSnapshot(), [addingFieldWithDefault]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-field-with-default\] /);
    expect(w.join('\n')).toContain('volatile');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE orders ADD COLUMN created_at timestamptz DEFAULT now()', shopSnapshot(), [addingFieldWithDefault])).toEqual([]);
  });
});

describe('adding-field-with-default before PostgreSQL 11', () => {
  it('flags a constant default too, since any default rewrote the table then', async () => {
    const snap = { ...shopSnapshot(), server_version_num: 100_000 };
    const w = await lintStatements("ALTER TABLE orders ADD COLUMN note text DEFAULT 'x'", snap, [addingFieldWithDefault]);
    expect(w.join('\n')).toMatch(/before PostgreSQL 11/);
    expect(await lintStatements("ALTER TABLE orders ADD COLUMN note text DEFAULT 'x'", shopSnapshot(), [addingFieldWithDefault])).toEqual([]);
  });
});

describe('adding-field-with-default: identity, generated and possibly volatile functions', () => {
  it('flags identity and stored generated columns, and functions that may be user-defined, but not now() or constants', async () => {
    const flagged = async (sql: string) => (await lintStatements(sql, shopSnapshot(), [addingFieldWithDefault])).length;
    expect(await flagged('ALTER TABLE orders ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY')).toBe(1);
    expect(await flagged('ALTER TABLE orders ADD COLUMN double_total numeric GENERATED ALWAYS AS (total * 2) STORED')).toBe(1);
    expect(await flagged('ALTER TABLE orders ADD COLUMN code text DEFAULT make_code()')).toBe(1);
    expect(await flagged('ALTER TABLE orders ADD COLUMN at timestamptz DEFAULT now()')).toBe(0);
    expect(await flagged('ALTER TABLE orders ADD COLUMN at2 timestamptz DEFAULT CURRENT_TIMESTAMP')).toBe(0);
    expect(await flagged('ALTER TABLE orders ADD COLUMN w integer NOT NULL DEFAULT -1')).toBe(0);
  });
});
