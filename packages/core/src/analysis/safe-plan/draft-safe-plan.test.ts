import { describe, expect, it } from 'vitest';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { analyzeMigrationDetailed } from '../analyze-migration';
import { buildSchemaIndex } from '../schema-index';
import { shopSnapshot } from '../test-schema';
import { draftSafePlan } from './draft-safe-plan';

async function draft(sql: string, change?: (s: SchemaSnapshot) => void) {
  const snapshot = shopSnapshot();
  change?.(snapshot);
  const a = await analyzeMigrationDetailed(sql, snapshot, { connectionId: 'c', sandbox: false });
  return draftSafePlan(
    a.parsed,
    a.items.map((i) => i.facts),
    a.report.statements,
    buildSchemaIndex(snapshot),
    { size: 2000, pauseMs: 10 },
  );
}

const table = (s: SchemaSnapshot, name: string) => s.tables.find((t) => t.name === name)!;

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

  it('runs a large UPDATE or DELETE in batches by ranges of the primary key, the statement unchanged behind its annotation', async () => {
    const u = (await draft("-- backfill\nUPDATE orders SET status = 'paid' WHERE total > 0")).draft;
    expect(u?.steps).toEqual([
      expect.objectContaining({
        sql: "-- dbops:batched key=id size=2000 pause_ms=10\n-- backfill\nUPDATE orders SET status = 'paid' WHERE total > 0",
        transactional: true,
        lock_type: 'ROW EXCLUSIVE',
        batched: true,
      }),
    ]);
    expect(u?.combined_script).toBe(
      "SET lock_timeout = '2s';\nBEGIN;\n-- dbops:batched key=id size=2000 pause_ms=10\n-- backfill\nUPDATE orders SET status = 'paid' WHERE total > 0;\nCOMMIT;\n",
    );
    expect(u?.rewrites).toEqual([
      expect.stringMatching(/^statement 0: the UPDATE runs in batches of 2000 rows by ranges of id, each its own short transaction/),
    ]);
    const d = (await draft("DELETE FROM events WHERE created_at < now() - interval '1 year'")).draft;
    expect(d?.steps.map((s) => [s.sql.split('\n')[0], s.batched])).toEqual([['-- dbops:batched key=id size=2000 pause_ms=10', true]]);
  });

  it('batches by a NOT NULL unique key when there is no single-column primary key', async () => {
    const d = await draft('DELETE FROM customers WHERE name IS NULL', (s) => {
      table(s, 'customers').primary_key = null;
      table(s, 'customers').row_estimate = 500_000;
    });
    expect(d.draft?.steps[0]!.sql.split('\n')[0]).toBe('-- dbops:batched key=email size=2000 pause_ms=10');
  });

  it.each([
    [
      'a table without a single-column key',
      'UPDATE orders SET total = 0',
      (s: SchemaSnapshot) => {
        const t = table(s, 'orders');
        t.primary_key = ['id', 'customer_id'];
        t.indexes = t.indexes.filter((i) => !i.is_unique);
      },
      /orders has no single-column primary key or NOT NULL unique key/,
    ],
    [
      'a key whose ranges are not batched',
      'UPDATE orders SET total = 0',
      (s: SchemaSnapshot) => void Object.assign(table(s, 'orders').columns[0]!, { data_type: 'point', udt_name: 'point' }),
      /key column id is of type point/,
    ],
    ['a statement that changes the key', 'UPDATE orders SET id = id + 1', undefined, /sets the key column id itself/],
    ['a statement that reads its table again', 'DELETE FROM orders WHERE total < (SELECT avg(total) FROM orders)', undefined, /reads orders again/],
  ])('offers no plan for %s, and says why', async (_, sql, change, why) => {
    const d = await draft(sql, change);
    expect(d.draft).toBeNull();
    expect(d.reason).toMatch(
      /^statement 0 \((UPDATE|DELETE)\) changes rows of public\.orders \(about 2,000,000 rows\) in one transaction, holding their row locks until it commits: /,
    );
    expect(d.reason).toMatch(why);
  });

  it('offers no plan when a statement-level trigger or a function of the schema would see each batch', async () => {
    const model = (s: SchemaSnapshot, triggerDefinition: string) => {
      s.model = {
        schemas: [],
        types: [],
        routines: [{ id: 'pg_proc:1', schema: 'public', name: 'order_score', kind: 'function', identity_arguments: 'bigint', definition: '' }],
        triggers: [{ id: 'pg_trigger:1', table_schema: 'public', table: 'orders', name: 'orders_audit', definition: triggerDefinition, enabled: 'O' }],
        rules: [],
        policies: [],
        statistics: [],
        uncaptured: [],
        comments: [],
        dependencies: [],
      };
    };
    const statementTrigger = 'CREATE TRIGGER orders_audit AFTER INSERT OR DELETE ON public.orders FOR EACH STATEMENT EXECUTE FUNCTION audit()';
    expect((await draft('DELETE FROM orders WHERE total = 0', (s) => model(s, statementTrigger))).reason).toMatch(
      /statement-level trigger orders_audit fires on DELETE: batches would fire it once per batch instead of once$/,
    );
    // Not on UPDATE, and a row trigger fires per row either way.
    const rowTrigger = 'CREATE TRIGGER orders_audit AFTER UPDATE ON public.orders FOR EACH ROW EXECUTE FUNCTION audit()';
    expect((await draft('UPDATE orders SET total = 0', (s) => model(s, statementTrigger))).draft).not.toBeNull();
    expect((await draft('UPDATE orders SET total = 0', (s) => model(s, rowTrigger))).draft).not.toBeNull();
    expect((await draft('UPDATE orders SET total = order_score(id)', (s) => model(s, rowTrigger))).reason).toMatch(
      /calls order_score, a function of the schema that may read orders while the batches change it$/,
    );
  });

  it('needs none for a statement the script already runs in batches', async () => {
    expect(await draft('-- dbops:batched key=id\nUPDATE orders SET total = 0')).toEqual({ draft: null, reason: null });
  });

  it('says why there is no plan: no known safe form, or a script with its own transactions', async () => {
    expect((await draft('ALTER TABLE orders ALTER COLUMN total TYPE numeric, ALTER COLUMN status TYPE text')).reason).toMatch(
      /^statement 0 \(.*\) .*dbops knows no safe form of it yet$/,
    );
    expect((await draft('BEGIN; CREATE INDEX orders_a ON orders (total); COMMIT;')).reason).toMatch(/manages its own transactions/);
  });

  it('changes a primary key column type by expand/contract: shadow column, trigger, batched backfill, concurrent key, short swap, drop', async () => {
    const { draft: d } = await draft('ALTER TABLE events ALTER COLUMN id TYPE numeric');
    expect(d?.steps.map((s) => [s.sql, s.transactional, s.lock_type, s.batched])).toEqual([
      [
        'ALTER TABLE public.events ADD COLUMN dbops_new_id numeric;\n' +
          'CREATE FUNCTION public.dbops_sync_events_id() RETURNS trigger LANGUAGE plpgsql AS $dbops$\nBEGIN\n  NEW.dbops_new_id := new.id;\n  RETURN NEW;\nEND\n$dbops$;\n' +
          'CREATE TRIGGER dbops_sync_id BEFORE INSERT OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION public.dbops_sync_events_id()',
        true,
        'ACCESS EXCLUSIVE',
        false,
      ],
      ['-- dbops:batched key=id size=2000 pause_ms=10\nUPDATE public.events SET dbops_new_id = id WHERE dbops_new_id IS NULL', true, 'ROW EXCLUSIVE', true],
      ['CREATE UNIQUE INDEX CONCURRENTLY dbops_new_events_pkey ON public.events (dbops_new_id)', false, 'SHARE UPDATE EXCLUSIVE', false],
      ['ALTER TABLE public.events ADD CONSTRAINT dbops_not_null_events_id CHECK (dbops_new_id IS NOT NULL) NOT VALID', true, 'ACCESS EXCLUSIVE', false],
      ['ALTER TABLE public.events VALIDATE CONSTRAINT dbops_not_null_events_id', true, 'SHARE UPDATE EXCLUSIVE', false],
      [
        [
          'DROP TRIGGER dbops_sync_id ON public.events',
          'ALTER TABLE public.events DROP CONSTRAINT events_pkey',
          'ALTER TABLE public.events ALTER COLUMN id DROP NOT NULL',
          'ALTER TABLE public.events RENAME COLUMN id TO id_dbops_old',
          'ALTER TABLE public.events RENAME COLUMN dbops_new_id TO id',
          'ALTER TABLE public.events ALTER COLUMN id SET NOT NULL',
          'ALTER TABLE public.events DROP CONSTRAINT dbops_not_null_events_id',
          'ALTER TABLE public.events ADD CONSTRAINT events_pkey PRIMARY KEY USING INDEX dbops_new_events_pkey',
        ].join(';\n'),
        true,
        'ACCESS EXCLUSIVE',
        false,
      ],
      ['ALTER TABLE public.events DROP COLUMN id_dbops_old;\nDROP FUNCTION public.dbops_sync_events_id()', true, 'ACCESS EXCLUSIVE', false],
    ]);
    expect(d?.reordered).toEqual(['public.events']);
    expect(d?.volatile).toEqual([]);
    expect(d?.rewrites).toEqual([expect.stringMatching(/^statement 0: expand\/contract: .* id becomes the last column of events$/)]);
    expect(d?.combined_script).toMatch(/^SET lock_timeout = '2s';\nBEGIN;\nALTER TABLE public.events ADD COLUMN dbops_new_id numeric;\n/);
  });

  it("drops an index of a large table CONCURRENTLY, alone, and leaves a small table's DROP INDEX as it is", async () => {
    const { draft: d, reason } = await draft('DROP INDEX orders_customer_id_idx');
    expect(reason).toBeNull();
    expect(d!.steps.map((s) => [s.sql, s.transactional])).toEqual([['DROP INDEX CONCURRENTLY orders_customer_id_idx', false]]);
    const small = await draft('DROP INDEX orders_customer_id_idx', (s) => {
      s.tables.find((t) => t.name === 'orders')!.row_estimate = 5_000;
    });
    expect(small.draft).toBeNull();
  });

  it("rebuilds the column's foreign key NOT VALID and its index CONCURRENTLY on the shadow, and gives them their names at the swap", async () => {
    const { draft: d } = await draft('ALTER TABLE orders ALTER COLUMN customer_id TYPE numeric');
    const sqls = d!.steps.map((s) => s.sql);
    expect(sqls.slice(2, 5)).toEqual([
      'CREATE INDEX CONCURRENTLY dbops_new_orders_customer_id_idx ON public.orders (dbops_new_customer_id)',
      'ALTER TABLE public.orders ADD CONSTRAINT dbops_new_orders_customer_id_fkey FOREIGN KEY (dbops_new_customer_id) REFERENCES public.customers (id) ON DELETE CASCADE NOT VALID',
      'ALTER TABLE public.orders VALIDATE CONSTRAINT dbops_new_orders_customer_id_fkey',
    ]);
    expect(sqls.at(-2)!.split(';\n')).toEqual([
      'DROP TRIGGER dbops_sync_customer_id ON public.orders',
      'DROP INDEX public.orders_customer_id_idx',
      'ALTER TABLE public.orders DROP CONSTRAINT orders_customer_id_fkey',
      'ALTER TABLE public.orders ALTER COLUMN customer_id DROP NOT NULL',
      'ALTER TABLE public.orders RENAME COLUMN customer_id TO customer_id_dbops_old',
      'ALTER TABLE public.orders RENAME COLUMN dbops_new_customer_id TO customer_id',
      'ALTER TABLE public.orders ALTER COLUMN customer_id SET NOT NULL',
      'ALTER TABLE public.orders DROP CONSTRAINT dbops_not_null_orders_customer_id',
      'ALTER INDEX public.dbops_new_orders_customer_id_idx RENAME TO orders_customer_id_idx',
      'ALTER TABLE public.orders RENAME CONSTRAINT dbops_new_orders_customer_id_fkey TO orders_customer_id_fkey',
    ]);
  });

  it('swaps a key other tables reference: their foreign keys added again on the new key NOT VALID and validated before one swap of all the tables', async () => {
    const { draft: d, reason } = await draft('ALTER TABLE orders ALTER COLUMN id TYPE numeric');
    expect(reason).toBeNull();
    const sqls = d!.steps.map((s) => s.sql);
    expect(sqls.slice(0, 9).map((s) => s.split('\n')[0])).toEqual([
      'ALTER TABLE public.orders ADD COLUMN dbops_new_id numeric;',
      '-- dbops:batched key=id size=2000 pause_ms=10',
      'CREATE UNIQUE INDEX CONCURRENTLY dbops_new_orders_pkey ON public.orders (dbops_new_id)',
      'ALTER TABLE public.orders ADD CONSTRAINT dbops_not_null_orders_id CHECK (dbops_new_id IS NOT NULL) NOT VALID',
      'ALTER TABLE public.orders VALIDATE CONSTRAINT dbops_not_null_orders_id',
      'ALTER TABLE public.order_items ADD CONSTRAINT dbops_new_order_items_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.orders (dbops_new_id) ON DELETE CASCADE NOT VALID',
      'ALTER TABLE public.order_items VALIDATE CONSTRAINT dbops_new_order_items_order_id_fkey',
      'ALTER TABLE public.shipments ADD CONSTRAINT dbops_new_shipments_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.orders (dbops_new_id) ON DELETE SET NULL NOT VALID',
      'ALTER TABLE public.shipments VALIDATE CONSTRAINT dbops_new_shipments_order_id_fkey',
    ]);
    expect(d!.steps.slice(5, 9).map((s) => [s.transactional, s.lock_type])).toEqual([
      [true, 'SHARE ROW EXCLUSIVE'],
      [true, 'SHARE UPDATE EXCLUSIVE'],
      [true, 'SHARE ROW EXCLUSIVE'],
      [true, 'SHARE UPDATE EXCLUSIVE'],
    ]);
    // The old foreign keys go first (they hang on the old key's index), the new ones take their names last.
    expect(sqls[9]!.split(';\n')).toEqual([
      'LOCK TABLE public.order_items, public.shipments, public.orders IN ACCESS EXCLUSIVE MODE',
      'ALTER TABLE public.order_items DROP CONSTRAINT order_items_order_id_fkey',
      'ALTER TABLE public.shipments DROP CONSTRAINT shipments_order_id_fkey',
      'DROP TRIGGER dbops_sync_id ON public.orders',
      'ALTER TABLE public.orders DROP CONSTRAINT orders_pkey',
      'ALTER TABLE public.orders ALTER COLUMN id DROP NOT NULL',
      'ALTER TABLE public.orders RENAME COLUMN id TO id_dbops_old',
      'ALTER TABLE public.orders RENAME COLUMN dbops_new_id TO id',
      'ALTER TABLE public.orders ALTER COLUMN id SET NOT NULL',
      'ALTER TABLE public.orders DROP CONSTRAINT dbops_not_null_orders_id',
      'ALTER TABLE public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY USING INDEX dbops_new_orders_pkey',
      'ALTER TABLE public.order_items RENAME CONSTRAINT dbops_new_order_items_order_id_fkey TO order_items_order_id_fkey',
      'ALTER TABLE public.shipments RENAME CONSTRAINT dbops_new_shipments_order_id_fkey TO shipments_order_id_fkey',
    ]);
    expect(sqls[10]).toBe('ALTER TABLE public.orders DROP COLUMN id_dbops_old;\nDROP FUNCTION public.dbops_sync_orders_id()');
    expect(d!.steps).toHaveLength(11);
    expect(d!.reordered).toEqual(['public.orders']);
    expect(d!.rewrites).toEqual([
      expect.stringMatching(
        /^statement 0: expand\/contract of a referenced key: .*order_items\.order_id, shipments\.order_id keep their type, as the original leaves them; id becomes the last column of orders$/,
      ),
    ]);
  });

  it('folds the next statements that change the referencing columns into the same plan and swap; a statement in between stops the folding', async () => {
    const { draft: d } = await draft('ALTER TABLE orders ALTER COLUMN id TYPE numeric; ALTER TABLE order_items ALTER COLUMN order_id TYPE numeric');
    const sqls = d!.steps.map((s) => s.sql);
    expect(sqls.map((s) => s.split('\n')[0]!).filter((s) => /ADD COLUMN|dbops:batched|FOREIGN KEY/.test(s))).toEqual([
      'ALTER TABLE public.orders ADD COLUMN dbops_new_id numeric;',
      'ALTER TABLE public.order_items ADD COLUMN dbops_new_order_id numeric;',
      '-- dbops:batched key=id size=2000 pause_ms=10',
      '-- dbops:batched key=id size=2000 pause_ms=10',
      'ALTER TABLE public.order_items ADD CONSTRAINT dbops_new_order_items_order_id_fkey FOREIGN KEY (dbops_new_order_id) REFERENCES public.orders (dbops_new_id) ON DELETE CASCADE NOT VALID',
      'ALTER TABLE public.shipments ADD CONSTRAINT dbops_new_shipments_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.orders (dbops_new_id) ON DELETE SET NULL NOT VALID',
    ]);
    const swap = sqls.at(-2)!.split(';\n');
    expect(swap).toContain('ALTER TABLE public.order_items RENAME COLUMN dbops_new_order_id TO order_id');
    // The child's own foreign key to the key is not rebuilt twice: the plan drops it once, first.
    expect(swap.filter((s) => s.includes('DROP CONSTRAINT order_items_order_id_fkey'))).toEqual([
      'ALTER TABLE public.order_items DROP CONSTRAINT order_items_order_id_fkey',
    ]);
    expect(swap.indexOf('ALTER TABLE public.order_items DROP CONSTRAINT order_items_order_id_fkey')).toBe(1);
    expect(sqls.at(-1)).toContain('ALTER TABLE public.order_items DROP COLUMN order_id_dbops_old');
    expect(d!.reordered).toEqual(['public.orders', 'public.order_items']);
    expect(d!.rewrites).toEqual([expect.stringMatching(/^statement 0 \(with statement 1\): /)]);

    const apart = (
      await draft(
        'ALTER TABLE orders ALTER COLUMN id TYPE numeric; ALTER TABLE orders ADD COLUMN note text; ALTER TABLE order_items ALTER COLUMN order_id TYPE numeric',
      )
    ).draft!;
    expect(apart.rewrites.map((r) => r.split(':')[0])).toEqual(['statement 0', 'statement 2']);
    expect(apart.steps.map((s) => s.sql)).toContain('ALTER TABLE orders ADD COLUMN note text');
  });

  it('keeps a USING expression: the trigger reads the row as NEW, the backfill as the table', async () => {
    const { draft: d } = await draft('ALTER TABLE orders ALTER COLUMN total TYPE bigint USING round(orders.total) + 1');
    expect(d?.steps[0]!.sql).toContain('  NEW.dbops_new_total := round(new.total) + 1;\n');
    expect(d?.steps[1]!.sql).toBe(
      '-- dbops:batched key=id size=2000 pause_ms=10\nUPDATE public.orders SET dbops_new_total = round(total) + 1 WHERE dbops_new_total IS NULL',
    );
    // A nullable column without index or constraint: no helper CHECK, nothing rebuilt.
    expect(d?.steps.map((s) => s.sql.split('\n')[0])).toEqual([
      'ALTER TABLE public.orders ADD COLUMN dbops_new_total bigint;',
      '-- dbops:batched key=id size=2000 pause_ms=10',
      'DROP TRIGGER dbops_sync_total ON public.orders;',
      'ALTER TABLE public.orders DROP COLUMN total_dbops_old;',
    ]);
  });

  it('adds a column with a volatile default as: column and default in one catalog-only step, batched backfill with DEFAULT, NOT NULL by the helper CHECK', async () => {
    const { draft: d } = await draft('ALTER TABLE events ADD COLUMN token uuid NOT NULL DEFAULT gen_random_uuid()');
    expect(d?.steps.map((s) => [s.sql, s.batched])).toEqual([
      ['ALTER TABLE events ADD COLUMN token uuid;\nALTER TABLE events ALTER COLUMN token SET DEFAULT gen_random_uuid()', false],
      ['-- dbops:batched key=id size=2000 pause_ms=10\nUPDATE public.events SET token = DEFAULT WHERE token IS NULL', true],
      ['ALTER TABLE public.events ADD CONSTRAINT dbops_events_token_not_null CHECK (token IS NOT NULL) NOT VALID', false],
      ['ALTER TABLE public.events VALIDATE CONSTRAINT dbops_events_token_not_null', false],
      ['ALTER TABLE public.events ALTER COLUMN token SET NOT NULL;\nALTER TABLE public.events DROP CONSTRAINT dbops_events_token_not_null', false],
    ]);
    expect(d?.volatile).toEqual(['public.events.token']);
    expect(d?.reordered).toEqual([]);
    const nullable = (await draft('ALTER TABLE events ADD COLUMN seen_at timestamptz DEFAULT clock_timestamp()')).draft;
    expect(nullable?.steps.map((s) => s.sql.split('\n')[0])).toEqual([
      'ALTER TABLE events ADD COLUMN seen_at timestamptz;',
      '-- dbops:batched key=id size=2000 pause_ms=10',
    ]);
  });

  const userTrigger = (definition: string) => (s: SchemaSnapshot) => {
    s.model = {
      schemas: [],
      types: [],
      routines: [],
      triggers: [{ id: 'pg_trigger:1', table_schema: 'public', table: 'events', name: 'events_touch', definition, enabled: 'O' }],
      rules: [],
      policies: [],
      statistics: [],
      uncaptured: [],
      comments: [],
      dependencies: [],
    };
  };

  /** events.id as an int identity column with its sequence (INCREMENT BY 5). */
  const identityEvents = (s: SchemaSnapshot) => {
    Object.assign(table(s, 'events').columns[0]!, { identity: 'by_default', data_type: 'integer', udt_name: 'int4' });
    s.sequences.push({
      schema: 'public',
      name: 'events_id_seq',
      data_type: 'integer',
      owned_by: 'public.events.id',
      owner: { schema: 'public', table: 'events', column: 'id', identity: true },
      start: '10',
      increment: '5',
      min: '1',
      max: '2147483647',
      cache: '1',
      cycle: false,
    });
  };

  it("hands an identity column's sequence over to the new column inside the swap, its state and options kept", async () => {
    const { draft: d, reason } = await draft('ALTER TABLE events ALTER COLUMN id TYPE bigint', identityEvents);
    expect(reason).toBeNull();
    expect(d!.steps.at(-2)!.sql.split(';\n')).toEqual([
      'DROP TRIGGER dbops_sync_id ON public.events',
      'ALTER TABLE public.events DROP CONSTRAINT events_pkey',
      'ALTER TABLE public.events ALTER COLUMN dbops_new_id SET NOT NULL',
      'ALTER TABLE public.events ALTER COLUMN dbops_new_id ADD GENERATED BY DEFAULT AS IDENTITY (SEQUENCE NAME public.dbops_new_events_id_seq INCREMENT BY 5 START WITH 10 CACHE 1 NO CYCLE)',
      "SELECT pg_catalog.setval('public.dbops_new_events_id_seq', last_value, is_called) FROM public.events_id_seq",
      'ALTER TABLE public.events ALTER COLUMN id DROP IDENTITY',
      'ALTER TABLE public.events ALTER COLUMN id DROP NOT NULL',
      'ALTER TABLE public.events RENAME COLUMN id TO id_dbops_old',
      'ALTER TABLE public.events RENAME COLUMN dbops_new_id TO id',
      'ALTER TABLE public.events DROP CONSTRAINT dbops_not_null_events_id',
      'ALTER TABLE public.events ADD CONSTRAINT events_pkey PRIMARY KEY USING INDEX dbops_new_events_pkey',
      'ALTER SEQUENCE public.dbops_new_events_id_seq RENAME TO events_id_seq',
    ]);
    // A bound of its own is kept; one that was int's default becomes bigint's, as ALTER TYPE does.
    const bounded = await draft('ALTER TABLE events ALTER COLUMN id TYPE bigint', (s) => {
      identityEvents(s);
      s.sequences.at(-1)!.max = '1000000';
    });
    expect(bounded.draft!.steps.at(-2)!.sql).toContain(
      '(SEQUENCE NAME public.dbops_new_events_id_seq INCREMENT BY 5 MAXVALUE 1000000 START WITH 10 CACHE 1 NO CYCLE)',
    );
  });

  it.each([
    [
      'a key whose referencing foreign key is NOT VALID',
      'ALTER TABLE orders ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => void (table(s, 'shipments').foreign_keys[0]!.validated = false),
      /foreign key shipments_order_id_fkey of shipments is NOT VALID/,
    ],
    [
      'a key referenced by a foreign key of several columns',
      'ALTER TABLE orders ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => {
        const fk = table(s, 'shipments').foreign_keys[0]!;
        fk.columns = ['order_id', 'id'];
        fk.referenced_columns = ['id', 'customer_id'];
      },
      /foreign key shipments_order_id_fkey of shipments has several columns/,
    ],
    [
      'a key and a referencing column changed together whose foreign key sets NULL',
      'ALTER TABLE orders ALTER COLUMN id TYPE numeric; ALTER TABLE shipments ALTER COLUMN order_id TYPE numeric',
      undefined,
      /foreign key shipments_order_id_fkey of shipments sets NULL or DEFAULT on its column/,
    ],
    [
      'a view reads the column',
      'ALTER TABLE customers ALTER COLUMN email TYPE varchar(300)',
      (s: SchemaSnapshot) => void (table(s, 'customers').row_estimate = 500_000),
      /view public\.customer_emails reads email; it would keep reading the old column/,
    ],
    [
      'an identity column whose sequence the snapshot lacks',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => void (table(s, 'events').columns[0]!.identity = 'by_default'),
      /id is an identity column whose sequence is not in the snapshot/,
    ],
    [
      'an identity column changed to a type that is not an integer',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      identityEvents,
      /id is an identity column, and dbops swaps an identity only between integer types/,
    ],
    [
      'a generated column computed from it',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) =>
        void table(s, 'events').columns.push({
          ...table(s, 'events').columns[0]!,
          name: 'id2',
          ordinal: 4,
          nullable: true,
          generated: 'stored',
          generation_expression: '(id * 2)',
        }),
      /generated column id2 is computed from id/,
    ],
    [
      'a partitioned table',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => void (table(s, 'events').kind = 'partitioned_table'),
      /events is partitioned/,
    ],
    [
      'a table with inheritance children',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => void (table(s, 'shipments').inherits = [{ schema: 'public', name: 'events' }]),
      /events takes part in table inheritance/,
    ],
    [
      'a trigger the backfill would fire',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      userTrigger('CREATE TRIGGER events_touch BEFORE UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION touch()'),
      /trigger events_touch fires on UPDATE or before INSERT/,
    ],
    [
      'an index definition the parser cannot read',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      (s: SchemaSnapshot) => void table(s, 'events').indexes.push({ ...table(s, 'events').indexes[0]!, name: 'odd', definition: 'CREATE INDEX odd ON (' }),
      /a definition of an index or constraint of events could not be read/,
    ],
    [
      'a USING expression with a subquery',
      'ALTER TABLE events ALTER COLUMN id TYPE numeric USING (SELECT max(id) FROM orders)',
      undefined,
      /USING expression has a subquery/,
    ],
    [
      'a volatile default with another constraint',
      'ALTER TABLE events ADD COLUMN token uuid DEFAULT gen_random_uuid() UNIQUE',
      undefined,
      /the new column has UNIQUE besides its DEFAULT/,
    ],
    [
      'a volatile default on a table without a key to batch by',
      'ALTER TABLE events ADD COLUMN token uuid DEFAULT gen_random_uuid()',
      (s: SchemaSnapshot) => {
        table(s, 'events').primary_key = null;
        table(s, 'events').indexes = [];
      },
      /events has no single-column primary key or NOT NULL unique key/,
    ],
    [
      'a volatile default on a table whose UPDATE trigger the backfill would fire',
      'ALTER TABLE events ADD COLUMN token uuid DEFAULT gen_random_uuid()',
      userTrigger('CREATE TRIGGER events_touch AFTER INSERT OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION touch()'),
      /trigger events_touch fires on UPDATE or before INSERT/,
    ],
  ])('offers no expand/contract plan for %s, and says why', async (_, sql, change, why) => {
    const d = await draft(sql, change);
    expect(d.draft).toBeNull();
    expect(d.reason).toMatch(/^statement 0 \(ALTER_TABLE_[A-Z_]+\) (holds|rewrites) /);
    expect(d.reason).toMatch(why);
  });

  it('lets an INSERT-only trigger that fires after the row stand (the backfill does not fire it, and it cannot change the row)', async () => {
    const d = await draft(
      'ALTER TABLE events ALTER COLUMN id TYPE numeric',
      userTrigger('CREATE TRIGGER events_touch AFTER INSERT ON public.events FOR EACH ROW EXECUTE FUNCTION touch()'),
    );
    expect(d.draft).not.toBeNull();
  });
});
