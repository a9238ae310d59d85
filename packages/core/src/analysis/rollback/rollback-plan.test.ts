import { describe, expect, it } from 'vitest';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { shopSnapshot } from '../test-schema';
import { rollbackPlan } from './rollback-plan';

async function plan(sql: string) {
  const items = analyzeStatements(await parseStatements(sql), buildSchemaIndex(shopSnapshot()), { rules: [] });
  return rollbackPlan(items.map((i) => ({ ...i.report.rollback, non_transactional: i.rollbackNonTransactional })));
}

describe('rollback plan', () => {
  it('inverts each statement from the snapshot and orders the script backwards', async () => {
    const p = await plan(
      'ALTER TABLE orders ADD COLUMN note text; ALTER TABLE order_items ALTER COLUMN quantity TYPE bigint; ALTER TABLE customers RENAME COLUMN name TO full_name; ALTER TABLE orders ADD CHECK (total > 0)',
    );
    expect(p.steps.map((s) => s.sql)).toEqual([
      'ALTER TABLE public.orders DROP COLUMN note',
      'ALTER TABLE public.order_items ALTER COLUMN quantity TYPE integer USING quantity::integer',
      'ALTER TABLE public.customers RENAME COLUMN full_name TO name',
      'ALTER TABLE public.orders DROP CONSTRAINT orders_check',
    ]);
    expect(p.has_irreversible).toBe(false);
    expect(p.combined_script.indexOf('orders_check')).toBeLessThan(p.combined_script.indexOf('DROP COLUMN note'));
    expect(p.combined_script.startsWith('BEGIN;')).toBe(true);
    expect(p.combined_script.endsWith('COMMIT;')).toBe(true);
  });

  it('recreates dropped structure but marks it irreversible, and DML as irreversible', async () => {
    const p = await plan('ALTER TABLE customers DROP COLUMN name; DROP TABLE shipments; DELETE FROM orders WHERE id = 1');
    expect(p.steps[0]).toMatchObject({ sql: 'ALTER TABLE public.customers ADD COLUMN name character varying(100)', reversible: false });
    expect(p.steps[0]!.warning).toMatch(/data is not restored/);
    expect(p.steps[1]!.sql).toMatch(/^CREATE TABLE public\.shipments \(/);
    expect(p.steps[1]!.sql).toMatch(/FOREIGN KEY \(order_id\) REFERENCES public\.orders\(id\) ON DELETE SET NULL/);
    expect(p.steps[2]!.reversible).toBe(false);
    expect(p.has_irreversible).toBe(true);
  });

  it('keeps non-transactional undo steps outside the transaction blocks, in order', async () => {
    const p = await plan('ALTER TABLE orders ADD COLUMN a text; CREATE INDEX CONCURRENTLY orders_a_idx ON orders (a); ALTER TABLE orders ADD COLUMN b text');
    expect(p.combined_script.split('\n').filter((l) => !l.startsWith('--'))).toEqual([
      'BEGIN;',
      'ALTER TABLE public.orders DROP COLUMN b;',
      'COMMIT;',
      'DROP INDEX CONCURRENTLY orders_a_idx;',
      'BEGIN;',
      'ALTER TABLE public.orders DROP COLUMN a;',
      'COMMIT;',
    ]);
  });
});
