import { describe, expect, it } from 'vitest';
import { analyzeMigrationDetailed } from '../analyze-migration';
import { buildSchemaIndex } from '../schema-index';
import { shopSnapshot } from '../test-schema';
import { draftSafePlan } from './draft-safe-plan';

async function draft(sql: string) {
  const snapshot = shopSnapshot();
  const a = await analyzeMigrationDetailed(sql, snapshot, { connectionId: 'c', sandbox: false });
  return draftSafePlan(
    a.parsed,
    a.items.map((i) => i.facts),
    a.report.statements,
    buildSchemaIndex(snapshot),
  );
}

describe('safe plan drafts', () => {
  it('needs none for a migration that blocks no writes for long', async () => {
    expect(await draft('ALTER TABLE orders ADD COLUMN note text')).toEqual({ draft: null, reason: null });
  });

  it('builds an index CONCURRENTLY, named as PostgreSQL would name it, alone', async () => {
    const { draft: d } = await draft('CREATE INDEX ON orders (status, lower(total::text))');
    expect(d?.steps).toEqual([
      expect.objectContaining({
        index: 0,
        sql: 'CREATE INDEX CONCURRENTLY orders_status_expr_idx ON orders (status, (lower(total::text)))',
        transactional: false,
        lock_type: 'SHARE UPDATE EXCLUSIVE',
      }),
    ]);
    expect(d?.combined_script).toBe("SET lock_timeout = '2s';\nCREATE INDEX CONCURRENTLY orders_status_expr_idx ON orders (status, (lower(total::text)));\n");
  });

  it('adds a foreign key NOT VALID and validates it in its own transaction', async () => {
    const { draft: d } = await draft('ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id)');
    expect(d?.steps.map((s) => [s.sql, s.transactional, s.lock_type])).toEqual([
      ['ALTER TABLE orders ADD CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) NOT VALID', true, 'SHARE ROW EXCLUSIVE'],
      ['ALTER TABLE public.orders VALIDATE CONSTRAINT orders_customer_id_fkey', true, 'SHARE UPDATE EXCLUSIVE'],
    ]);
    expect(d?.combined_script).toContain('BEGIN;\nALTER TABLE public.orders VALIDATE CONSTRAINT orders_customer_id_fkey;\nCOMMIT;');
  });

  it('names an unnamed CHECK after its one column, or after the table alone', async () => {
    const one = (await draft('ALTER TABLE orders ADD CHECK (total > 0)')).draft;
    expect(one?.steps[0]!.sql).toBe('ALTER TABLE orders ADD CONSTRAINT orders_total_check CHECK (total > 0) NOT VALID');
    const two = (await draft('ALTER TABLE orders ADD CHECK (total > 0 OR customer_id > 0)')).draft;
    expect(two?.steps[0]!.sql).toMatch(/^ALTER TABLE orders ADD CONSTRAINT orders_check CHECK/);
  });

  it('sets NOT NULL through a validated helper CHECK, then drops the helper', async () => {
    const { draft: d } = await draft('ALTER TABLE orders ALTER COLUMN total SET NOT NULL');
    expect(d?.steps.map((s) => s.sql)).toEqual([
      'ALTER TABLE public.orders ADD CONSTRAINT dbops_orders_total_not_null CHECK (total IS NOT NULL) NOT VALID',
      'ALTER TABLE public.orders VALIDATE CONSTRAINT dbops_orders_total_not_null',
      'ALTER TABLE public.orders ALTER COLUMN total SET NOT NULL;\nALTER TABLE public.orders DROP CONSTRAINT dbops_orders_total_not_null',
    ]);
  });

  it('adds a unique key through a concurrent unique index; a primary key proves its nullable columns first', async () => {
    const u = (await draft('ALTER TABLE orders ADD CONSTRAINT orders_pair UNIQUE (customer_id, status)')).draft;
    expect(u?.steps.map((s) => s.sql)).toEqual([
      'CREATE UNIQUE INDEX CONCURRENTLY orders_pair ON public.orders (customer_id, status)',
      'ALTER TABLE public.orders ADD CONSTRAINT orders_pair UNIQUE USING INDEX orders_pair',
    ]);
    const pk = (await draft('ALTER TABLE orders ADD PRIMARY KEY (total)')).draft;
    expect(pk?.steps.map((s) => s.sql.split('\n')[0])).toEqual([
      'CREATE UNIQUE INDEX CONCURRENTLY orders_pkey ON public.orders (total)',
      'ALTER TABLE public.orders ADD CONSTRAINT dbops_orders_total_not_null CHECK (total IS NOT NULL) NOT VALID',
      'ALTER TABLE public.orders VALIDATE CONSTRAINT dbops_orders_total_not_null',
      'ALTER TABLE public.orders ALTER COLUMN total SET NOT NULL;',
      'ALTER TABLE public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY USING INDEX orders_pkey',
    ]);
  });

  it('keeps the other statements as they are, consecutive ones in one transaction', async () => {
    const { draft: d } = await draft('ALTER TABLE orders ADD COLUMN a int; ALTER TABLE orders ADD COLUMN b int; CREATE INDEX orders_a ON orders (a)');
    expect(d?.steps.map((s) => [s.sql, s.transactional])).toEqual([
      ['ALTER TABLE orders ADD COLUMN a int;\nALTER TABLE orders ADD COLUMN b int', true],
      ['CREATE INDEX CONCURRENTLY orders_a ON orders (a)', false],
    ]);
  });

  it('says why there is no plan: no known safe form, or a script with its own transactions', async () => {
    expect((await draft('ALTER TABLE orders ALTER COLUMN id TYPE numeric')).reason).toMatch(/^statement 0 \(.*\) .*dbops knows no safe form of it yet$/);
    expect((await draft('BEGIN; CREATE INDEX orders_a ON orders (total); COMMIT;')).reason).toMatch(/manages its own transactions/);
  });
});
