import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import {
  type FakeOpenAi,
  RESULT_FIELDS,
  type RecordedRequest,
  type ScriptedReply,
  startFakeOpenAi,
  startTextToSqlFixture,
  type TextToSqlFixture,
} from '../support/text-to-sql';

let fake: FakeOpenAi;
let f: TextToSqlFixture;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  f = await startTextToSqlFixture({
    user: 't2s-openai',
    env: { DBOPS_LLM: 'openai', DBOPS_LLM_API_KEY: 'sk-test-123', DBOPS_LLM_BASE_URL: fake.baseUrl, DBOPS_LLM_MODEL: 'fake-sql-model' },
  });
});
afterAll(async () => {
  await f.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const userMessage = (r: RecordedRequest): string => r.body.messages.find((m) => m.role === 'user')!.content;
const scripted = (...replies: ScriptedReply[]) => {
  fake.script = (_r, call) => replies[Math.min(call, replies.length) - 1]!;
};

describe('POST .../queries/generate with an OpenAI-compatible model', () => {
  it('sends a structured-output chat request with the question, schema and similarities', async () => {
    scripted({
      sql: 'SELECT c.name FROM customers c WHERE c.city = $$Berlin$$ ORDER BY c.name',
      confidence: 1,
      referenced_tables: ['public.customers'],
      warnings: ['none'],
    });
    const res = await f.generate({ query: 'Customers in Berlin?', max_schema_chunks: 20 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ confidence: 1, referenced_tables: ['public.customers'], warnings: ['none'], reasoning: 'scripted', sql_valid: true });
    expect(res.body.data.markdown_output).toBe('| name |\n| --- |\n| Alice |\n| Carol |\n\n2 rows.');
    expect(fake.requests).toHaveLength(1);
    const r = fake.requests[0]!;
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.authorization).toBe('Bearer sk-test-123');
    expect(r.body.model).toBe('fake-sql-model');
    expect(r.body.temperature).toBe(0);
    expect(r.body.response_format?.type).toBe('json_schema');
    expect(r.body.response_format?.json_schema?.name).toBe('generated_sql');
    expect(r.body.response_format?.json_schema?.strict).toBe(true);
    expect(Object.keys((r.body.response_format?.json_schema?.schema as { properties: object }).properties).sort()).toEqual([
      'confidence',
      'reasoning',
      'referenced_tables',
      'sql',
      'warnings',
    ]);
    expect(r.body.messages[0]!.role).toBe('system');
    const prompt = userMessage(r);
    expect(prompt).toContain('Question: Customers in Berlin?');
    expect(prompt).toMatch(/TABLE public\.customers \(similarity \d\.\d{3}\)/);
    expect(prompt).toContain('FOREIGN KEY (customer_id) REFERENCES public.customers (id)');
    expect(prompt).toContain("public.order_status: 'pending', 'shipped', 'delivered', 'cancelled'");
    expect(prompt).not.toContain('Earlier attempts');
  });

  it('retries once with corrective feedback when a hallucinated column is fixed', async () => {
    scripted({ sql: 'SELECT o.id, o.discount FROM orders o' }, { sql: 'SELECT o.id, o.total FROM orders o ORDER BY o.id LIMIT 1' });
    const res = await f.generate({ query: 'Order discounts', max_schema_chunks: 20 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      sql: 'SELECT o.id, o.total FROM orders o ORDER BY o.id LIMIT 1',
      sql_valid: true,
      hallucinated_columns: [],
      hallucinated_tables: [],
    });
    expect(res.body.data.warnings.join(' ')).toMatch(/Attempt 1 referenced names outside the retrieved schema \(orders\.discount\)/);
    expect(res.body.data.markdown_output).toContain('| 1 | 270.00 |');
    expect(fake.requests).toHaveLength(2);
    const retry = userMessage(fake.requests[1]!);
    expect(retry).toContain('SELECT o.id, o.discount FROM orders o');
    expect(retry).toContain('These columns do not exist: orders.discount.');
    expect(retry).toContain('public.orders(id, customer_id, status, total, created_at)');
  });

  it('answers SCHEMA_VALIDATION_FAILED when the retry still hallucinates, with every field', async () => {
    scripted({ sql: 'SELECT o.discount FROM orders o JOIN invoices i ON i.order_id = o.id' }, { sql: 'SELECT o.discount FROM orders o' });
    const res = await f.generate({ query: 'Order discounts', max_schema_chunks: 20 });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(Object.keys(res.body.data)).toEqual(RESULT_FIELDS);
    expect(res.body.data).toMatchObject({
      sql: 'SELECT o.discount FROM orders o',
      sql_valid: false,
      hallucinated_tables: [],
      hallucinated_columns: ['orders.discount'],
      execution_error: null,
    });
    expect(res.body.data.markdown_output).toMatch(/not in this database's schema/);
    expect(fake.requests).toHaveLength(2);
    expect(userMessage(fake.requests[1]!)).toContain('These tables do not exist in the schema: invoices.');
  });

  it('reports hallucinated tables outside the retrieved chunks', async () => {
    scripted({ sql: 'SELECT * FROM invoices' });
    const res = await f.generate({ query: 'Invoices', max_schema_chunks: 20 });
    expect(res.body.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(res.body.data.hallucinated_tables).toEqual(['invoices']);
  });

  it('checks against the retrieved context only: top chunks plus one foreign-key hop', async () => {
    // One chunk (customers) plus its one-hop neighbour (orders, which references it); products
    // is two hops away, so a query on it is outside the context although the table exists.
    scripted({ sql: 'SELECT count(*) FROM products' });
    const res = await f.generate({ query: 'customers name city active', max_schema_chunks: 1 });
    expect(res.body.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(res.body.data).toMatchObject({ schema_chunks_used: 1, hallucinated_tables: ['products'] });
    const prompt = userMessage(fake.requests[0]!);
    expect(prompt).toMatch(/TABLE public\.customers \(similarity /);
    expect(prompt).toContain('TABLE public.orders (joined by foreign key)');
    expect(prompt).not.toContain('TABLE public.products');
    expect(prompt).not.toContain('TABLE public.order_items');
    expect(userMessage(fake.requests[1]!)).toContain('These tables do not exist in the schema: products.');
  });

  it('ends at a syntax error without a retry (SQL_GENERATION_FAILED)', async () => {
    scripted({ sql: 'SELEC * FROM orders' }, { sql: 'SELECT 1' });
    const res = await f.generate({ query: 'All orders' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('SQL_GENERATION_FAILED');
    expect(res.body.data).toMatchObject({ sql: 'SELEC * FROM orders', sql_valid: false });
    expect(res.body.data.markdown_output).toMatch(/Syntax error/);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a data-modifying statement, also inside WITH, and changes nothing', async () => {
    for (const statement of ['DELETE FROM orders', 'WITH d AS (DELETE FROM orders RETURNING id) SELECT count(*) FROM d']) {
      scripted({ sql: statement });
      const res = await f.generate({ query: 'Remove all orders' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('SQL_GENERATION_FAILED');
      expect(res.body.data.markdown_output).toMatch(/DELETE/);
    }
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM orders')).toEqual([{ n: 4 }]);
  });

  it('answers EXECUTION_FAILED with the database error when valid SQL fails', async () => {
    scripted({ sql: 'SELECT o.total / 0 FROM orders o' });
    const res = await f.generate({ query: 'Broken maths' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('EXECUTION_FAILED');
    expect(Object.keys(res.body.data)).toEqual(RESULT_FIELDS);
    expect(res.body.data.sql_valid).toBe(true);
    expect(res.body.data.execution_error).toMatch(/division by zero/);
    expect(res.body.data.markdown_output).toMatch(/failed on the database:\*\* division by zero \(SQLSTATE 22012\)\. It ran read-only/);
  });

  it('runs read-only and rolls back: a writing function is refused', async () => {
    scripted({ sql: "SELECT nextval('s')" });
    const res = await f.generate({ query: 'Next number' });
    expect(res.body.error.code).toBe('EXECUTION_FAILED');
    expect(res.body.data.execution_error).toMatch(/read-only/);
    expect(await sql(f.db.url, 'SELECT last_value::int AS v, is_called FROM s')).toEqual([{ v: 1, is_called: false }]);
  });

  it('cancels a query at the 10 s statement timeout', async () => {
    scripted({ sql: 'SELECT pg_sleep(30)' });
    const started = Date.now();
    const res = await f.generate({ query: 'Sleep' });
    const elapsed = Date.now() - started;
    expect(res.body.error.code).toBe('EXECUTION_FAILED');
    expect(res.body.data.execution_error).toBe('The query was cancelled after the 10 s statement timeout.');
    expect(elapsed).toBeGreaterThanOrEqual(10_000);
    expect(elapsed).toBeLessThan(20_000);
  }, 40_000);

  it('caps the result at 500 rows and says so', async () => {
    scripted({ sql: 'SELECT g.n FROM generate_series(1, 600) AS g(n)' });
    const res = await f.generate({ query: 'Numbers' });
    expect(res.status, res.text).toBe(200);
    const lines = res.body.data.markdown_output.split('\n');
    expect(lines.filter((l: string) => /^\| \d+ \|$/.test(l))).toHaveLength(500);
    expect(lines.at(-1)).toBe('500 rows shown; the result had more and was capped at 500 rows.');
    expect(res.body.data.warnings).toContain('The result was capped at 500 rows.');
  });

  it('turns a failing model server into SQL_GENERATION_FAILED without leaking the key', async () => {
    fake.script = () => ({ status: 400, body: { error: { message: 'bad request from model', type: 'invalid_request_error' } } });
    const res = await f.generate({ query: 'Anything' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('SQL_GENERATION_FAILED');
    expect(res.body.data.markdown_output).toMatch(/HTTP 400/);
    expect(res.text).not.toContain('sk-test-123');
  });

  it('keeps low confidence honest and warns about it', async () => {
    scripted({ sql: 'SELECT count(*) FROM orders', confidence: 0.2 });
    const res = await f.generate({ query: 'Revenue per planet' });
    expect(res.status).toBe(200);
    expect(res.body.data.confidence).toBe(0.2);
    expect(res.body.data.warnings.join(' ')).toMatch(/Low confidence/);
  });
});
