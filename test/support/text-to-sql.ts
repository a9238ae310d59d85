import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startConnectedRuntime } from './connections';
import type { ApiResponse, TestRuntime } from './test-runtime';

/** A small shop: enough tables and foreign keys for joins, enums, booleans and dates. */
export const SHOP_SQL = `
CREATE TYPE order_status AS ENUM ('pending', 'shipped', 'delivered', 'cancelled');
CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, city text, is_active boolean NOT NULL DEFAULT true, created_at timestamptz NOT NULL);
CREATE TABLE products (id int PRIMARY KEY, name text NOT NULL, price numeric(10,2) NOT NULL);
CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL REFERENCES customers(id), status order_status NOT NULL, total numeric(10,2) NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE order_items (id int PRIMARY KEY, order_id int NOT NULL REFERENCES orders(id), product_id int NOT NULL REFERENCES products(id), quantity int NOT NULL);
CREATE SEQUENCE s;
INSERT INTO customers VALUES (1, 'Alice', 'Berlin', true, '2024-01-05'), (2, 'Bob', 'Paris', true, '2024-03-01'), (3, 'Carol', 'Berlin', false, '2023-06-01');
INSERT INTO products VALUES (1, 'Lamp', 20), (2, 'Desk', 250), (3, 'Chair', 90);
INSERT INTO orders VALUES (1, 1, 'shipped', 270, '2024-02-01'), (2, 1, 'pending', 20, '2024-05-01'), (3, 2, 'delivered', 90, '2023-12-24'), (4, 1, 'shipped', 90, '2024-06-01');
INSERT INTO order_items VALUES (1, 1, 1, 1), (2, 1, 2, 1), (3, 2, 1, 1), (4, 3, 3, 1), (5, 4, 3, 1);
`;

/** The structured reply a scripted model sends. */
export interface ScriptedReply {
  sql: string;
  confidence?: number;
  reasoning?: string;
  referenced_tables?: string[];
  warnings?: string[];
}

/** A chat-completions request as the fake server received it. */
export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    temperature?: number;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  };
}

/**
 * A local OpenAI-compatible server: POST /v1/chat/completions answers with `script(request,
 * call number)` as the message content (JSON), the way a real server returns structured output.
 */
export interface FakeOpenAi {
  baseUrl: string;
  requests: RecordedRequest[];
  script: (request: RecordedRequest, call: number) => ScriptedReply | { status: number; body: unknown };
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
};

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    script: () => ({ sql: 'SELECT 1' }),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const recorded: RecordedRequest = { path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(await readBody(req)) };
      fake.requests.push(recorded);
      const reply = fake.script(recorded, fake.requests.length);
      res.setHeader('content-type', 'application/json');
      if ('status' in reply) {
        res.statusCode = reply.status;
        res.end(JSON.stringify(reply.body));
        return;
      }
      const content = JSON.stringify({ confidence: 0.9, reasoning: 'scripted', referenced_tables: [], warnings: [], ...reply });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${fake.requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: recorded.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** A runtime, the shop database registered for `user`, and an API key. */
export interface TextToSqlFixture {
  t: TestRuntime;
  db: { url: string; name: string; drop(): Promise<void> };
  user: string;
  apiKey: string;
  connectionId: string;
  /** POST .../queries/generate on the fixture's connection (or `connectionId`). */
  generate<T = any>(body: Record<string, unknown>, options?: { apiKey?: string; connectionId?: string }): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTextToSqlFixture(options: { user?: string; env?: Record<string, string>; setupSql?: string } = {}): Promise<TextToSqlFixture> {
  const base = await startConnectedRuntime({ ...options, prefix: 't2s', user: options.user ?? 't2s-user', setupSql: options.setupSql ?? SHOP_SQL });
  const { t, apiKey, connectionId } = base;
  return {
    ...base,
    generate: (body, o = {}) => t.request('POST', `/connections/${o.connectionId ?? connectionId}/queries/generate`, { apiKey: o.apiKey ?? apiKey, body }),
  };
}

/** Every field of the spec's Text-to-SQL result, in spec order. */
export const RESULT_FIELDS = [
  'connection_id',
  'natural_language_query',
  'sql',
  'confidence',
  'reasoning',
  'referenced_tables',
  'warnings',
  'sql_valid',
  'hallucinated_tables',
  'hallucinated_columns',
  'schema_chunks_used',
  'doc_chunks_used',
  'execution_error',
  'markdown_output',
];
