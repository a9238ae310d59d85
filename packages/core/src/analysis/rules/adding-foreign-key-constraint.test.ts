import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { addingForeignKeyConstraint } from './adding-foreign-key-constraint';
import { lintStatements } from './lint-statements';

describe('adding-foreign-key-constraint', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id)', shopSnapshot(), [addingForeignKeyConstraint]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[adding-foreign-key-constraint\] /);
    expect(w.join('\n')).toContain('public.orders');
  });

  it('stays quiet on the safe form', async () => {
    expect(await lintStatements('ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID', shopSnapshot(), [addingForeignKeyConstraint])).toEqual([]);
  });
});
