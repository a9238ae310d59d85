import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingSerialPrimaryKeyField } from './adding-serial-primary-key-field';
import { lintStatements } from './lint-statements';

describe('adding-serial-primary-key-field', () => {
  it('flags a new primary-key column with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD COLUMN uid bigserial PRIMARY KEY', shopSnapshot(), [addingSerialPrimaryKeyField]);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^\[adding-serial-primary-key-field\] /);
    expect(w.join('\n')).toContain('USING INDEX');
  });

  it('flags ADD PRIMARY KEY without USING INDEX (squawk reports it under this name)', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD PRIMARY KEY (id)', shopSnapshot(), [addingSerialPrimaryKeyField]);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('ADD PRIMARY KEY builds a unique index on public.shipments');
  });

  it('stays quiet on the safe forms', async () => {
    expect(await lintStatements('ALTER TABLE shipments ADD COLUMN uid bigint', shopSnapshot(), [addingSerialPrimaryKeyField])).toEqual([]);
    expect(
      await lintStatements('ALTER TABLE shipments ADD CONSTRAINT shipments_pk PRIMARY KEY USING INDEX shipments_id_idx', shopSnapshot(), [
        addingSerialPrimaryKeyField,
      ]),
    ).toEqual([]);
  });
});
