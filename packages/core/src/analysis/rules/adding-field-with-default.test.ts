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
