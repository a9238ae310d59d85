import { describe, expect, it } from 'vitest';
import { shopSnapshot } from '../test-schema';
import { fkWithoutIndex } from './fk-without-index';
import { lintStatements } from './lint-statements';

describe('fk-without-index', () => {
  it('warns with the safe alternative', async () => {
    const w = await lintStatements('ALTER TABLE shipments ADD CONSTRAINT s_fk FOREIGN KEY (order_id) REFERENCES orders(id) NOT VALID', shopSnapshot(), [
      fkWithoutIndex,
    ]);
    expect(w.length).toBeGreaterThan(0);
    expect(w[0]).toMatch(/^\[fk-without-index\] /);
    expect(w.join('\n')).toContain('CREATE INDEX CONCURRENTLY ON public.shipments (order_id)');
  });

  it('stays quiet on the safe form', async () => {
    expect(
      await lintStatements('ALTER TABLE orders ADD CONSTRAINT o_fk FOREIGN KEY (customer_id) REFERENCES customers(id) NOT VALID', shopSnapshot(), [
        fkWithoutIndex,
      ]),
    ).toEqual([]);
  });
});
