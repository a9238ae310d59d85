import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocuments } from '../support/documents';
import { registerConnection } from '../support/connections';
import { sql } from '../support/scratch-database';
import { RESULT_FIELDS, startTextToSqlFixture, type TextToSqlFixture } from '../support/text-to-sql';

let f: TextToSqlFixture;

beforeAll(async () => {
  f = await startTextToSqlFixture({ user: 't2s-offline' });
});
afterAll(() => f.close());

describe('POST /connections/{id}/queries/generate with the offline generator', () => {
  it('retrieves, generates, validates and executes a count, answering every field', async () => {
    const res = await f.generate({ query: 'How many customers are there?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.error).toBeNull();
    expect(res.headers.get('x-credits-remaining')).toMatch(/^\d+\.\d{4}$/);
    const d = res.body.data;
    expect(Object.keys(d)).toEqual(RESULT_FIELDS);
    expect(d).toMatchObject({
      connection_id: f.connectionId,
      natural_language_query: 'How many customers are there?',
      sql_valid: true,
      hallucinated_tables: [],
      hallucinated_columns: [],
      execution_error: null,
      doc_chunks_used: 0,
    });
    expect(d.sql).toMatch(/count\(\*\)/i);
    expect(d.referenced_tables).toEqual(['public.customers']);
    expect(d.confidence).toBeGreaterThanOrEqual(0.5);
    expect(d.schema_chunks_used).toBeGreaterThanOrEqual(1);
    expect(d.schema_chunks_used).toBeLessThanOrEqual(5);
    expect(d.markdown_output).toBe('| count |\n| --- |\n| 3 |\n\n1 row.');
  });

  it('joins along a foreign key reached by the one-hop expansion', async () => {
    const res = await f.generate({ query: 'What is the total of orders per customer?', max_schema_chunks: 1 });
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.schema_chunks_used).toBe(1);
    expect(d.sql).toMatch(/JOIN/);
    expect(d.markdown_output).toContain('| Alice | 380.00 |');
    expect(d.markdown_output).toContain('| Bob | 90.00 |');
    expect(d.markdown_output).toMatch(/\n2 rows\.$/);
  });

  it('honours max_schema_chunks and uses uploaded documents up to max_doc_chunks', async () => {
    const up = await uploadDocuments(f.t, { apiKey: f.apiKey }, f.connectionId, [
      {
        name: 'glossary.md',
        content: '# Orders\nA shipped order has left the warehouse. Orders are placed by customers.\n\n# Customers\nActive customers ordered this year.',
        type: 'text/markdown',
      },
    ]);
    expect(up.status, up.text).toBeLessThan(300);
    const withDocs = await f.generate({ query: 'How many orders were shipped?', max_schema_chunks: 2, max_doc_chunks: 1 });
    expect(withDocs.status, withDocs.text).toBe(200);
    expect(withDocs.body.data.schema_chunks_used).toBe(2);
    expect(withDocs.body.data.doc_chunks_used).toBe(1);
    expect(withDocs.body.data.markdown_output).toContain('| 2 |');
    const noDocs = await f.generate({ query: 'How many orders were shipped?', max_doc_chunks: 0 });
    expect(noDocs.body.data.doc_chunks_used).toBe(0);
    const all = await f.generate({ query: 'How many orders were shipped?', max_schema_chunks: 20 });
    expect(all.body.data.schema_chunks_used).toBe(4);
  });

  it('answers SQL_GENERATION_FAILED with the full result when the question is outside the schema', async () => {
    const res = await f.generate({ query: 'What is the weather on Mars tomorrow?' });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('SQL_GENERATION_FAILED');
    expect(Object.keys(res.body.data)).toEqual(RESULT_FIELDS);
    expect(res.body.data.confidence).toBeLessThan(0.5);
    expect(res.body.data.sql_valid).toBe(false);
    expect(res.body.data.markdown_output).toMatch(/No valid SQL could be generated/);
  });

  it('validates the request body with the spec 422 shape', async () => {
    for (const body of [
      {},
      { query: '' },
      { query: 'x', max_schema_chunks: 0 },
      { query: 'x', max_schema_chunks: 21 },
      { query: 'x', max_doc_chunks: -1 },
      { query: 'x', max_doc_chunks: 21 },
    ]) {
      const res = await f.generate(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
  });

  it("answers 404 for another user's connection, an unknown one, and after deletion", async () => {
    const otherKey = await f.t.apiKey('t2s-intruder');
    expect((await f.generate({ query: 'How many customers are there?' }, { apiKey: otherKey })).status).toBe(404);
    expect((await f.generate({ query: 'How many customers are there?' }, { connectionId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const second = await registerConnection(f.t, f.user, f.db.url, { name: 'second' });
    const del = await f.t.request('DELETE', `/connections/${second.id}`, { apiKey: f.apiKey });
    expect(del.status, del.text).toBeLessThan(300);
    expect((await f.generate({ query: 'How many customers are there?' }, { connectionId: second.id })).status).toBe(404);
  });

  it('requires credentials', async () => {
    const res = await f.t.request('POST', `/connections/${f.connectionId}/queries/generate`, { body: { query: 'How many customers are there?' } });
    expect(res.status).toBe(401);
  });

  it('introspects a connection never introspected, and sees the data at execution time', async () => {
    await sql(f.db.url, "INSERT INTO customers VALUES (4, 'Dan', 'Rome', true, '2024-07-01')");
    const res = await f.generate({ query: 'Show customers from Rome' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.markdown_output).toContain('| 4 | Dan | Rome | true |');
    await sql(f.db.url, 'DELETE FROM customers WHERE id = 4');
  });
});
