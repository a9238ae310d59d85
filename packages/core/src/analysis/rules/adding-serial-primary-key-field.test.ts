import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingSerialPrimaryKeyField } from './adding-serial-primary-key-field';
import { lintStatements } from './lint-statements';

describe('adding-serial-primary-key-field', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD COLUMN uid bigserial UNIQUE', shopSnapshot(), [addingSerialPrimaryKeyField]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-serial-primary-key-field\] /);
    expect(w.join('\n')).toContain('USING INDEX');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE shipments ADD COLUMN uid bigint', shopSnapshot(), [addingSerialPrimaryKeyField])).toEqual([]);
  });
});
