import type { SchemaSnapshot, TableInfo } from '@dbops/core/introspection';
import { getLatestSnapshot } from '@dbops/core/introspection';
import { ensureSnapshot, introspectConnection } from '@dbops/core/introspection';
import { searchSchemaChunks } from '@dbops/core/introspection';
import { domainDeps } from '@dbops/functions/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const SCHEMA = `
  CREATE SCHEMA sales;
  CREATE SCHEMA crm;
  CREATE TYPE sales.order_status AS ENUM ('pending', 'paid', 'shipped', 'cancelled');
  CREATE TABLE crm.customers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL UNIQUE,
    name varchar(200),
    created_at timestamptz NOT NULL DEFAULT now()
  );
  COMMENT ON TABLE crm.customers IS 'People who buy things';
  COMMENT ON COLUMN crm.customers.email IS 'Login and contact address';
  CREATE TABLE sales.orders (
    id bigserial,
    customer_id bigint NOT NULL REFERENCES crm.customers(id) ON DELETE CASCADE ON UPDATE RESTRICT,
    status sales.order_status NOT NULL DEFAULT 'pending',
    amount numeric(12,2) NOT NULL CHECK (amount > 0),
    ordered_at date NOT NULL,
    amount_cents bigint GENERATED ALWAYS AS ((amount * 100)::bigint) STORED,
    PRIMARY KEY (id, ordered_at)
  ) PARTITION BY RANGE (ordered_at);
  CREATE TABLE sales.orders_2024 PARTITION OF sales.orders FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
  CREATE TABLE sales.orders_2025 PARTITION OF sales.orders FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
  CREATE INDEX orders_customer ON sales.orders (customer_id);
  CREATE TABLE sales.order_notes (
    id serial PRIMARY KEY,
    order_id bigint,
    ordered_at date,
    note text,
    FOREIGN KEY (order_id, ordered_at) REFERENCES sales.orders (id, ordered_at) ON DELETE SET NULL
  );
  CREATE TABLE crm.bookings (
    id int PRIMARY KEY,
    room int NOT NULL,
    during tsrange NOT NULL,
    EXCLUDE USING gist (during WITH &&)
  );
  CREATE INDEX customers_lower_email ON crm.customers (lower(email)) WHERE name IS NOT NULL;
  CREATE VIEW sales.customer_totals AS
    SELECT c.id, c.email, sum(o.amount) AS total FROM crm.customers c JOIN sales.orders o ON o.customer_id = c.id GROUP BY c.id, c.email;
  CREATE MATERIALIZED VIEW sales.daily AS SELECT ordered_at, count(*) AS n FROM sales.orders GROUP BY ordered_at;
  INSERT INTO crm.customers (email, name) SELECT 'c' || g || '@example.com', 'C' || g FROM generate_series(1, 50) g;
  ANALYZE;
`;

describe('introspection through HTTP', () => {
  let t: TestRuntime;
  let db: { url: string; name: string; drop(): Promise<void> };
  let alice: string;
  let connectionId: string;
  let snapshot: SchemaSnapshot;
  const table = (q: string): TableInfo => {
    const found = snapshot.tables.find((x) => `${x.schema}.${x.name}` === q);
    if (!found) throw new Error(`no ${q} in snapshot`);
    return found;
  };

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('intro');
    await sql(db.url, SCHEMA);
    alice = await t.jwt('alice');
    connectionId = (await registerConnection(t, 'alice', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('answers the spec summary, charges one request and sets last_introspected_at', async () => {
    const before = await t.request('GET', '/billing/balance', { jwt: alice });
    const res = await t.request('POST', `/connections/${connectionId}/introspect`, { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const s = res.body.data;
    expect(Object.keys(s).sort()).toEqual(['connection_id', 'introspected_at', 'snapshot_id', 'table_count', 'tables']);
    expect(s.connection_id).toBe(connectionId);
    expect(s.tables).toEqual(
      expect.arrayContaining([
        'crm.customers',
        'crm.bookings',
        'sales.orders',
        'sales.orders_2024',
        'sales.orders_2025',
        'sales.order_notes',
        'sales.customer_totals',
        'sales.daily',
      ]),
    );
    expect(s.table_count).toBe(s.tables.length);
    expect(s.table_count).toBe(8);
    expect(res.headers.get('x-credits-remaining')).toBe((Number(before.body.data.balance) - 0.005).toFixed(4));

    const conn = await t.request('GET', `/connections/${connectionId}`, { jwt: alice });
    expect(conn.body.data.last_introspected_at).toBe(s.introspected_at);

    const users = await t.runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [connectionId]);
    const latest = await getLatestSnapshot(t.runtime.container.store, users.rows[0]!.user_id, connectionId);
    expect(latest?.snapshot_id).toBe(s.snapshot_id);
    snapshot = latest!;
  });

  it('captures server version, extensions, schemas, enums and sequences', () => {
    expect(snapshot.server_version).toMatch(/^\d+/);
    expect(snapshot.server_version_num).toBeGreaterThanOrEqual(140000);
    expect(snapshot.extensions.map((e) => e.name)).toContain('plpgsql');
    expect(snapshot.schemas).toEqual(expect.arrayContaining(['crm', 'public', 'sales']));
    expect(snapshot.schemas).not.toContain('pg_catalog');
    expect(snapshot.enums).toEqual([expect.objectContaining({ schema: 'sales', name: 'order_status', values: ['pending', 'paid', 'shipped', 'cancelled'] })]);
    expect(snapshot.sequences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ schema: 'sales', name: 'orders_id_seq', data_type: 'bigint', owned_by: 'sales.orders.id' }),
        expect.objectContaining({ schema: 'crm', name: 'customers_id_seq', owned_by: 'crm.customers.id' }),
      ]),
    );
  });

  it('captures columns with types, nullability, defaults, identity, generation and comments', () => {
    const customers = table('crm.customers');
    expect(customers.kind).toBe('table');
    expect(customers.comment).toBe('People who buy things');
    expect(customers.columns.map((c) => c.name)).toEqual(['id', 'email', 'name', 'created_at']);
    expect(customers.columns[0]).toMatchObject({ ordinal: 1, data_type: 'bigint', udt_name: 'int8', nullable: false, identity: 'always', default: null });
    expect(customers.columns[1]).toMatchObject({ data_type: 'text', nullable: false, comment: 'Login and contact address' });
    expect(customers.columns[2]).toMatchObject({ data_type: 'character varying(200)', udt_name: 'varchar', nullable: true });
    expect(customers.columns[3]?.default).toBe('now()');
    expect(customers.row_estimate).toBe(50);
    expect(customers.total_bytes).toBeGreaterThan(0);
    expect(customers.pages).toBeGreaterThan(0);

    const orders = table('sales.orders');
    const status = orders.columns.find((c) => c.name === 'status');
    expect(status).toMatchObject({ data_type: 'sales.order_status', udt_name: 'order_status', default: "'pending'::sales.order_status" });
    expect(orders.columns.find((c) => c.name === 'id')?.default).toBe("nextval('sales.orders_id_seq'::regclass)");
    expect(orders.columns.find((c) => c.name === 'amount_cents')).toMatchObject({ generated: 'stored', default: null });
    expect(orders.columns.find((c) => c.name === 'amount_cents')?.generation_expression).toMatch(/amount \* \(?100/);
  });

  it('captures partitioning', () => {
    const orders = table('sales.orders');
    expect(orders.kind).toBe('partitioned_table');
    expect(orders.partition_key).toBe('RANGE (ordered_at)');
    const p = table('sales.orders_2024');
    expect(p.kind).toBe('table');
    expect(p.partition_of).toBe('sales.orders');
    expect(p.partition_bound).toBe("FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')");
  });

  it('captures keys and primary/unique/check/exclusion constraints', () => {
    const customers = table('crm.customers');
    expect(customers.primary_key).toEqual(['id']);
    expect(customers.constraints.map((c) => [c.type, c.columns])).toEqual(
      expect.arrayContaining([
        ['primary_key', ['id']],
        ['unique', ['email']],
      ]),
    );
    const orders = table('sales.orders');
    expect(orders.primary_key).toEqual(['id', 'ordered_at']);
    const check = orders.constraints.find((c) => c.type === 'check');
    expect(check).toMatchObject({ columns: ['amount'], definition: 'CHECK (amount > 0::numeric)', validated: true });
    const excl = table('crm.bookings').constraints.find((c) => c.type === 'exclusion');
    expect(excl?.definition).toMatch(/EXCLUDE USING gist \(during WITH &&\)/);
    // Constraints a partition inherits are described once, on the parent.
    expect(table('sales.orders_2024').constraints.filter((c) => c.type === 'check')).toHaveLength(1);
  });

  it('captures foreign keys across schemas with their actions', () => {
    const orders = table('sales.orders');
    expect(orders.foreign_keys).toEqual([
      expect.objectContaining({
        columns: ['customer_id'],
        referenced_schema: 'crm',
        referenced_table: 'customers',
        referenced_columns: ['id'],
        on_delete: 'cascade',
        on_update: 'restrict',
        validated: true,
      }),
    ]);
    expect(table('sales.orders_2024').foreign_keys).toEqual([]);
    const notes = table('sales.order_notes');
    expect(notes.foreign_keys).toEqual([
      expect.objectContaining({
        columns: ['order_id', 'ordered_at'],
        referenced_schema: 'sales',
        referenced_table: 'orders',
        referenced_columns: ['id', 'ordered_at'],
        on_delete: 'set_null',
        on_update: 'no_action',
      }),
    ]);
  });

  it('captures indexes with definition, columns, method, predicate and size', () => {
    const customers = table('crm.customers');
    const pk = customers.indexes.find((i) => i.is_primary);
    expect(pk).toMatchObject({ name: 'customers_pkey', columns: ['id'], is_unique: true, is_valid: true, method: 'btree' });
    expect(pk?.size_bytes).toBeGreaterThan(0);
    const expr = customers.indexes.find((i) => i.name === 'customers_lower_email');
    expect(expr).toMatchObject({ columns: ['lower(email)'], is_unique: false, predicate: 'name IS NOT NULL' });
    expect(expr?.definition).toContain('CREATE INDEX customers_lower_email ON crm.customers USING btree (lower(email))');
    expect(table('crm.bookings').indexes.find((i) => i.method === 'gist')).toBeDefined();
    expect(table('sales.orders').indexes.map((i) => i.name)).toContain('orders_customer');
  });

  it('captures views, materialized views and what they read', () => {
    const v = table('sales.customer_totals');
    expect(v.kind).toBe('view');
    expect(v.view_definition).toMatch(/sum\(o\.amount\)/);
    expect(v.columns.map((c) => c.name)).toEqual(['id', 'email', 'total']);
    expect(table('sales.daily').kind).toBe('materialized_view');
    expect(snapshot.view_dependencies).toEqual(
      expect.arrayContaining([
        { view: 'sales.customer_totals', table: 'crm.customers', columns: ['email', 'id'] },
        { view: 'sales.customer_totals', table: 'sales.orders', columns: ['amount', 'customer_id'] },
        { view: 'sales.daily', table: 'sales.orders', columns: ['ordered_at'] },
      ]),
    );
  });

  it('keeps history: a second introspection adds a snapshot that sees schema changes', async () => {
    await sql(db.url, 'CREATE TABLE public.audit_log (id bigint PRIMARY KEY, payload jsonb)');
    const res = await t.request('POST', `/connections/${connectionId}/introspect`, { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body.data.snapshot_id).not.toBe(snapshot.snapshot_id);
    expect(res.body.data.tables).toContain('public.audit_log');
    const rows = await t.runtime.container.store.query<{ n: string }>('SELECT count(*)::int AS n FROM schema_snapshots WHERE connection_id = $1', [
      connectionId,
    ]);
    expect(Number(rows.rows[0]!.n)).toBe(2);
  });

  it('stores one embedded chunk per table, with model and dimension, searchable for text-to-SQL', async () => {
    const store = t.runtime.container.store;
    const chunks = await store.query<{ table_schema: string; table_name: string; content: string; embedding_model: string; embedding_dimension: number }>(
      'SELECT table_schema, table_name, content, embedding_model, embedding_dimension FROM schema_chunks WHERE connection_id = $1 ORDER BY 1, 2',
      [connectionId],
    );
    expect(chunks.rows).toHaveLength(9);
    expect(new Set(chunks.rows.map((c) => `${c.embedding_model}/${c.embedding_dimension}`))).toEqual(new Set(['dbops-hashing-v1/384']));
    const orders = chunks.rows.find((c) => c.table_name === 'orders')!;
    expect(orders.content).toContain('customer_id bigint');
    expect(orders.content).toContain('references crm.customers (id) on delete cascade');
    expect(orders.content).toContain('enum sales.order_status: pending, paid, shipped, cancelled');
    const customers = chunks.rows.find((c) => c.table_name === 'customers')!;
    expect(customers.content).toContain('referenced by sales.orders (customer_id)');

    const deps = domainDeps(t.runtime.container);
    const owner = (await store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [connectionId])).rows[0]!.user_id;
    const [q] = await deps.embedder.embed(['bookings of each room']);
    const found = await searchSchemaChunks(store, { userId: owner, connectionId, embedding: q!, limit: 3, model: deps.embedder.model });
    expect(found).toHaveLength(3);
    expect(found[0]!.table_name).toBe('bookings');
    expect(found[0]!.similarity).toBeGreaterThan(found[2]!.similarity);
    expect(await searchSchemaChunks(store, { userId: owner, connectionId, embedding: q!, limit: 3, model: 'other-model' })).toEqual([]);
    const stranger = '00000000-0000-4000-8000-000000000001';
    expect(await searchSchemaChunks(store, { userId: stranger, connectionId, embedding: q!, limit: 3 })).toEqual([]);
  });

  it('a new snapshot keeps unchanged chunks, re-embeds changed ones and drops those of dropped tables', async () => {
    const store = t.runtime.container.store;
    const rows = async () =>
      new Map(
        (
          await store.query<{ table_name: string; id: string; snapshot_id: string }>(
            'SELECT table_name, id::text, snapshot_id FROM schema_chunks WHERE connection_id = $1',
            [connectionId],
          )
        ).rows.map((r) => [r.table_name, r]),
      );
    const before = await rows();
    await sql(db.url, "DROP TABLE public.audit_log; COMMENT ON TABLE crm.bookings IS 'Room reservations'");
    const res = await t.request('POST', `/connections/${connectionId}/introspect`, { jwt: alice });
    expect(res.status).toBe(200);
    const after = await rows();
    expect(after.has('audit_log')).toBe(false);
    expect(after.size).toBe(8);
    expect(after.get('customers')).toEqual(before.get('customers'));
    expect(after.get('bookings')?.snapshot_id).toBe(res.body.data.snapshot_id);
    const content = await store.query<{ content: string }>("SELECT content FROM schema_chunks WHERE connection_id = $1 AND table_name = 'bookings'", [
      connectionId,
    ]);
    expect(content.rows[0]?.content).toContain('Room reservations');
  });

  it('ensureSnapshot returns the latest snapshot and introspects when there is none', async () => {
    const store = t.runtime.container.store;
    const deps = domainDeps(t.runtime.container);
    const c2 = await registerConnection(t, 'alice', db.url, { name: 'fresh' });
    const owner = (await store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [c2.id])).rows[0]!.user_id;
    expect(await getLatestSnapshot(store, owner, c2.id)).toBeNull();
    const first = await ensureSnapshot(deps, owner, c2.id);
    expect(first.tables.length).toBe(8);
    const again = await ensureSnapshot(deps, owner, c2.id);
    expect(again.snapshot_id).toBe(first.snapshot_id);
    const newer = await introspectConnection(deps, owner, c2.id);
    expect((await ensureSnapshot(deps, owner, c2.id)).snapshot_id).toBe(newer.snapshot_id);
    await expect(ensureSnapshot(deps, '00000000-0000-4000-8000-000000000001', c2.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("answers 404 for another user's connection and for an unknown one", async () => {
    const bob = await t.jwt('bob');
    const res = await t.request('POST', `/connections/${connectionId}/introspect`, { jwt: bob });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await t.request('POST', '/connections/00000000-0000-4000-8000-000000000000/introspect', { jwt: alice })).status).toBe(404);
  });

  it('reports a database that went away as a connection failure, not a 500', async () => {
    const gone = await createScratchDatabase('gone');
    const c = await registerConnection(t, 'alice', gone.url);
    await gone.drop();
    const res = await t.request('POST', `/connections/${c.id}/introspect`, { jwt: alice });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONNECTION_FAILED');
    expect(res.body.error.details.reason).toBe('database_not_found');
  });
});
