import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { makePdf, uploadDocuments } from '../support/documents';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('context query', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let conn: string;
  let fresh: string;
  const query = (c: string, body: unknown, jwt = alice) => t.request('POST', `/connections/${c}/context/query`, { jwt, body });

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('ctx');
    await sql(
      db.url,
      `CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL UNIQUE);
       CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers ON DELETE CASCADE,
                            total numeric(12,2) NOT NULL CHECK (total >= 0), status text NOT NULL DEFAULT 'new');
       CREATE TABLE order_items (order_id bigint REFERENCES orders, sku text, qty int);
       COMMENT ON TABLE orders IS 'One row per checkout';`,
    );
    alice = await t.jwt('alice');
    conn = (await registerConnection(t, 'alice', db.url)).id;
    fresh = (await registerConnection(t, 'alice', db.url, { name: 'never introspected' })).id;
    const introspected = await t.request('POST', `/connections/${conn}/introspect`, { jwt: alice });
    expect(introspected.status).toBe(200);
    const pdf = await makePdf([['Finance notes', '', 'The orders table is the source of revenue reporting; a cancelled order keeps its row.']]);
    const up = await uploadDocuments(t, { jwt: alice }, conn, [
      // Shares the query's words but never names the table.
      { name: 'refund-process.md', content: '# Refund process\nHow refunds for a cancelled purchase are approved and paid back to the customer.' },
      { name: 'finance.pdf', content: pdf },
      { name: 'unrelated.txt', content: 'The office coffee machine is cleaned on Fridays.' },
    ]);
    expect(up.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('returns the latest snapshot metadata of the requested tables', async () => {
    const res = await query(conn, { table_names: ['orders', 'public.customers', 'nope'], query: 'cancelled orders' });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.connection_id).toBe(conn);
    expect(data.snapshot).toMatchObject({ snapshot_id: expect.any(String), introspected_at: expect.any(String), server_version: expect.any(String) });
    expect(data.missing_tables).toEqual(['nope']);
    expect(data.tables.map((x: { name: string }) => x.name)).toEqual(['public.orders', 'public.customers']);
    const orders = data.tables[0];
    expect(orders).toMatchObject({ schema: 'public', table: 'orders', kind: 'table', comment: 'One row per checkout', primary_key: ['id'] });
    expect(orders.columns.map((c: { name: string; data_type: string }) => [c.name, c.data_type])).toEqual([
      ['id', 'bigint'],
      ['customer_id', 'bigint'],
      ['total', 'numeric(12,2)'],
      ['status', 'text'],
    ]);
    expect(orders.constraints.map((c: { type: string }) => c.type).sort()).toEqual(['check', 'primary_key']);
    expect(orders.foreign_keys).toEqual([expect.objectContaining({ columns: ['customer_id'], referenced_table: 'customers', on_delete: 'cascade' })]);
    expect(orders.referenced_by).toEqual([expect.objectContaining({ table: 'public.order_items', columns: ['order_id'], referenced_columns: ['id'] })]);
  });

  it('ranks a chunk that names the table above one that is closer in wording but does not', async () => {
    const res = await query(conn, { table_names: ['orders'], query: 'how are refunds for a cancelled purchase approved', max_chunks: 5 });
    const chunks = res.body.data.chunks;
    expect(chunks.map((c: { filename: string }) => c.filename)).toEqual(['finance.pdf', 'refund-process.md', 'unrelated.txt']);
    expect(chunks[0]).toMatchObject({ chunk_index: 0, mentioned_tables: ['orders'], document_id: expect.any(String) });
    expect(chunks[0].excerpt).toContain('The orders table is the source of revenue reporting');
    expect(chunks[0].score).toBeGreaterThan(chunks[1].score);
    expect(chunks[1]).toMatchObject({ heading: 'Refund process', mentioned_tables: [] });
    for (const c of chunks) expect(c.score).toBeGreaterThanOrEqual(0);
    expect(res.body.data.context_used).toBe(true);

    // Without tables, the same question prefers the document closest in wording.
    const byQuery = await query(conn, { query: 'how are refunds for a cancelled purchase approved', max_chunks: 1 });
    expect(byQuery.body.data.chunks.map((c: { filename: string }) => c.filename)).toEqual(['refund-process.md']);
    expect(byQuery.body.data.tables).toEqual([]);
  });

  it('honours max_chunks: default 10, 0 gives schema only, over 50 is a validation error', async () => {
    expect((await query(conn, { query: 'orders', max_chunks: 1 })).body.data.chunks).toHaveLength(1);
    const none = await query(conn, { table_names: ['orders'], query: 'orders', max_chunks: 0 });
    expect(none.body.data).toMatchObject({ chunks: [], context_used: false });
    expect(none.body.data.tables).toHaveLength(1);
    const tooMany = await query(conn, { query: 'orders', max_chunks: 51 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'max_chunks'], type: 'less_than_equal' })]);
    expect((await query(conn, { table_names: 'orders' })).status).toBe(422);
  });

  it('answers with a null snapshot before any introspection and is free of charge', async () => {
    const res = await query(fresh, { table_names: ['orders'], query: 'orders' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ snapshot: null, tables: [], missing_tables: ['orders'], chunks: [], context_used: false });
    expect(res.headers.get('x-credits-remaining')).toBeNull();
  });

  it("404s for another user's connection", async () => {
    const res = await query(conn, { table_names: ['orders'], query: 'orders' }, await t.jwt('mallory'));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
