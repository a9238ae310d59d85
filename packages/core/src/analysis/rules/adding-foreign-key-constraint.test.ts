import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingForeignKeyConstraint } from './adding-foreign-key-constraint';
import { lintStatements } from './lint-statements';

describe('adding-foreign-key-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id)', shopSnapshot(), [
      addingForeignKeyConstraint,
    ]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-foreign-key-constraint\] /);
    expect(w.join('\n')).toContain('public.orders');
  });

  it('stays quiet on the safe form', async () => {
    expect(
      await lintStatements('ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID', shopSnapshot(), [
        addingForeignKeyConstraint,
      ]),
    ).toEqual([]);
  });
});

describe('adding-foreign-key-constraint, inline', () => {
  it('flags ADD COLUMN ... REFERENCES on an existing table', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD COLUMN customer_id bigint REFERENCES customers(id)', shopSnapshot(), [
      addingForeignKeyConstraint,
    ]);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('public.customers');
    expect(w[0]).toContain('ADD COLUMN without REFERENCES');
  });

  it('stays quiet on a table created earlier in the migration', async () => {
    const sql = 'CREATE TABLE notes (id bigint PRIMARY KEY); ALTER TABLE notes ADD COLUMN order_id bigint REFERENCES orders(id);';
    expect(await lintStatements(sql, shopSnapshot(), [addingForeignKeyConstraint])).toEqual([]);
  });
});
