import { routes, type RouteDefinition } from '@dbops/functions/routes';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { deflateBombPdf, nestedFormBombPdf } from '../support/hostile-pdfs';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/**
 * Malformed requests to every route of the route table: deep nesting, invalid encodings, NUL
 * bytes, oversize values, wrong types, arrays for objects, planted secrets. No answer may be a
 * 5xx, every answer must be the envelope, the validation body or the route's own form, and no
 * answer may echo a planted secret. Random parts are seeded, so a failure reproduces.
 */

const PASSWORD = 'Fz-Pl4nted-Pw-55219';
const SECRET_URL = `postgresql://app:${PASSWORD}@db.example.com:5432/shop`;
const SECRET_KEY = 'dbo_FzPlantedKey7731abcdefghijkLMNOP';
const SECRET_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkLWZ1enoifQ.FzPlantedSignature1234';
const SECRETS = [PASSWORD, SECRET_KEY, SECRET_JWT];
const SEED = 0x5eed23;

/** mulberry32: small, seeded, good enough to pick cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** Deep nesting inside a field the route reads, so it reaches the schema and not only the parser. */
const nestedField = (field: string, depth: number): string => `{"${field}":${nestedArrays(depth)},"name":${nestedObjects(depth)}}`;

const FIELDS = [
  'name',
  'db_type',
  'connection_string',
  'sql',
  'caller',
  'guardrail',
  'row_limit',
  'timeout_seconds',
  'connection_id',
  'approval_token',
  'query',
  'max_schema_chunks',
  'max_doc_chunks',
  'max_chunks',
  'amount_cents',
  'policy',
  'analyze',
  'jsonrpc',
  'method',
  'params',
  'id',
];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * 16);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return Math.floor(rand() * 2 ** 53) * (rand() < 0.5 ? -1 : 1);
    case 3:
      return [1e308, -0, 0.5, -1, 2 ** 31, 1e-300][Math.floor(rand() * 6)];
    case 4:
      return 'a\u0000b';
    case 5:
      return 'x'.repeat(200_000);
    case 6:
      return SECRET_URL;
    case 7:
      return SECRET_KEY;
    case 8:
      return SECRET_JWT;
    case 9:
      return '\ud800 lone surrogate';
    case 10:
      return depth > 2 ? [] : [randomValue(rand, depth + 1), randomValue(rand, depth + 1)];
    case 11:
      return depth > 2 ? {} : { [FIELDS[Math.floor(rand() * FIELDS.length)]!]: randomValue(rand, depth + 1) };
    case 12:
      return '00000000-0000-4000-8000-000000000000';
    case 13:
      return 'SELECT 1\u0000; SELECT 2';
    case 14:
      return '%zz%00';
    default:
      return '';
  }
}

/** Display names are stored and listed back by design, so no secret is planted in them. */
const ECHOED_BY_DESIGN = new Set(['name']);

function randomBody(rand: () => number): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const n = 1 + Math.floor(rand() * 5);
  for (let i = 0; i < n; i++) {
    const field = FIELDS[Math.floor(rand() * FIELDS.length)]!;
    const value = randomValue(rand);
    body[field] = ECHOED_BY_DESIGN.has(field) && typeof value === 'string' && SECRETS.some((x) => value.includes(x)) ? 'fuzz' : value;
  }
  return body;
}

/** JSON-RPC shaped bodies, so the MCP route's own parsing and its tool arguments are reached. */
const mcpBodies = (connectionId: string): string[] => [
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_sql","arguments":{"connection_id":"${connectionId}","sql":${nestedArrays(50_000)}}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${nestedObjects(50_000)}}`,
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'execute_sql', arguments: { connection_id: connectionId, sql: 'SELECT 1\u0000' } },
  }),
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'execute_sql', arguments: { connection_id: connectionId, sql: `SELECT 1 FROM "${SECRET_URL}"` } },
  }),
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'register_connection', arguments: { connection_string: SECRET_URL, name: 7 } },
  }),
  JSON.stringify({ jsonrpc: '2.0', id: { a: [1] }, method: 'tools/list' }),
  JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope\u0000', arguments: [] } }]),
];

/** Every body that is sent, as raw text. */
function bodies(rand: () => number): string[] {
  const out = [
    nestedArrays(5_000),
    nestedArrays(100_000),
    nestedObjects(5_000),
    nestedObjects(100_000),
    nestedField('sql', 20_000),
    nestedField('connection_string', 5_000),
    '[]',
    '[{}]',
    '"a string"',
    '123',
    'null',
    'true',
    '{"a":1',
    '\u0000',
    '{"name":"a\\u0000b"}',
    JSON.stringify([{ name: 'x', db_type: 'postgresql', connection_string: SECRET_URL }]),
    JSON.stringify({ name: 'fuzz', connection_string: SECRET_URL, sql: `SELECT '${SECRET_JWT}'`, approval_token: SECRET_JWT, query: SECRET_URL }),
    JSON.stringify({ name: 'a\u0000b', db_type: 'postgresql\u0000', connection_string: `${SECRET_URL}\u0000`, sql: 'SELECT 1\u0000', query: '\u0000' }),
  ];
  for (let i = 0; i < 12; i++) out.push(JSON.stringify(randomBody(rand)));
  return out;
}

/** Multipart parts for upload routes: NUL in the name and the text, oversize and traversing names, planted secrets. */
const MULTIPART_PARTS: Array<[string, string]> = [
  ['a\u0000b.md', '# t\n'],
  ['ok.md', 'text \u0000 with NUL'],
  ['x'.repeat(5_000), 'hi'],
  ['../../etc/passwd.md', 'hi'],
  [`${SECRET_KEY}.md`, `password: ${PASSWORD}`],
  ['bad.pdf', '%PDF-1.4\n\u0000garbage'],
  // A bidirectional override that would show "invoicedm.pdf".
  ['invoice\u202Efdp.md', '# t\n'],
];

const PARAM_VALUES = ['%zz', '%00', 'a%00b', '%E0%A4%A', '%2F..%2F', 'x'.repeat(4_000), 'ABCDEF00-0000-4000-8000-000000000000', '%ZZ%', '..', 'null'];

const QUERIES = [
  '?%zz=1',
  '?a=%00',
  '?analyze=%zz',
  '?analyze=%00',
  '?analyze[]=1&analyze=true',
  `?x=${'y'.repeat(6_000)}`,
  `?token=${SECRET_JWT}&key=${SECRET_KEY}`,
  '?read_only=%E0%A4',
];

interface Anomaly {
  request: string;
  status: number;
  why: string;
  text: string;
}

/** The answer has one of the forms the spec and the route table allow. */
function formProblem(route: RouteDefinition | undefined, status: number, text: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (route?.form === 'html' && status < 300) return null;
  if (status === 204) return text === '' ? null : 'body on 204';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (body === null || typeof body !== 'object') return 'not an object';
  const b = body as Record<string, unknown>;
  if (route?.form === 'jsonrpc' && b.jsonrpc === '2.0') return null;
  if (status === 422 && Array.isArray(b.detail)) {
    const bad = (b.detail as unknown[]).find((d) => {
      const i = d as Record<string, unknown>;
      return !(Array.isArray(i.loc) && typeof i.msg === 'string' && typeof i.type === 'string' && 'input' in i && 'ctx' in i);
    });
    return bad ? 'validation item without loc/msg/type/input/ctx' : null;
  }
  if (status === 402 && typeof b.detail === 'string') return null;
  if (status < 300) return route?.form === 'bare' || b.success === true ? null : 'success without the envelope';
  const error = b.error as Record<string, unknown> | null | undefined;
  if (b.success === false && b.data === null && error && typeof error.code === 'string' && typeof error.message === 'string') return null;
  return 'error without the envelope';
}

/** One raw HTTP/1.1 exchange, for what fetch refuses to send (NUL in headers, broken request lines). */
function rawRequest(baseUrl: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      resolve({ status, text: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`${head}\r\nhost: ${u.host}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

describe('fuzz: every route answers malformed input with the spec forms and no secret', () => {
  let t: TestRuntime;
  let jwt: string;
  let apiKey: string;
  let connectionId: string;
  let drops: Array<() => Promise<void>> = [];
  const anomalies: Anomaly[] = [];
  /** Hostile PDFs (test/support/hostile-pdfs.ts): a deflate bomb and nested form XObjects. */
  let hostilePdfs: Array<[string, Uint8Array]> = [];

  beforeAll(async () => {
    const target = await createScratchDatabase('fuzz');
    const shared = await createScratchDatabase('fuzzprov');
    drops = [target.drop, shared.drop];
    t = await startTestRuntime({
      env: {
        DBOPS_SHARED_INSTANCE_URL: `${shared.url}?sslmode=disable`,
        DBOPS_RATE_LIMIT: '100000',
        STRIPE_SECRET_KEY: 'sk_test_fuzzNotARealKey000',
        STRIPE_WEBHOOK_SECRET: 'whsec_fuzzNotARealSecret000',
        // The nested-form PDF below is stopped at this CPU budget, not the default 120 s.
        DBOPS_DOCUMENT_CPU_SECONDS: '4',
      },
    });
    hostilePdfs = [
      ['bomb.pdf', await deflateBombPdf(256 * 1024 * 1024)],
      ['forms.pdf', nestedFormBombPdf()],
    ];
    jwt = await t.jwt('fuzzer');
    apiKey = await t.apiKey('fuzzer');
    connectionId = (await registerConnection(t, 'fuzzer', target.url)).id;
  });
  afterAll(async () => {
    await t?.close();
    for (const drop of drops) await drop();
  });

  const credentials = (route: RouteDefinition): Record<string, string> =>
    route.auth === 'none' ? {} : route.auth === 'jwt' ? { authorization: `Bearer ${jwt}` } : { 'x-api-key': apiKey };

  const concretePath = (route: RouteDefinition, value?: string): string =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => value ?? (name === 'connection_id' ? connectionId : '00000000-0000-4000-8000-000000000000'));

  async function send(route: RouteDefinition | undefined, method: string, url: string, headers: Record<string, string>, body?: string): Promise<void> {
    let status: number;
    let text: string;
    try {
      const res = await fetch(`${new URL(t.baseUrl).origin}${url}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      status = res.status;
      text = await res.text();
    } catch (error) {
      anomalies.push({ request: `${method} ${url.slice(0, 120)}`, status: 0, why: `no answer: ${String(error)}`, text: '' });
      return;
    }
    record(`${method} ${url.slice(0, 120)} ${body === undefined ? '' : body.slice(0, 80)}`, route, status, text);
  }

  /** FUZZ_REPORT=/tmp/x writes what was found, for fixing it. */
  const report = (name: string): void => {
    if (process.env.FUZZ_REPORT) writeFileSync(`${process.env.FUZZ_REPORT}.${name}.json`, JSON.stringify(anomalies, null, 1));
  };

  /** Statuses per route, to check the fuzz got past the gateway and the authorizer. */
  const seen = new Map<RouteDefinition, Set<number>>();

  function record(request: string, route: RouteDefinition | undefined, status: number, text: string): void {
    if (route) seen.set(route, (seen.get(route) ?? new Set()).add(status));
    const why = formProblem(route, status, text);
    if (why) anomalies.push({ request, status, why, text: text.slice(0, 300) });
    for (const secret of SECRETS)
      if (text.includes(secret)) anomalies.push({ request, status, why: `echoes secret ${secret.slice(0, 8)}...`, text: text.slice(0, 300) });
  }

  it('every route, every malformed body, path parameter and query string', async () => {
    const rand = prng(SEED);
    const jsonBodies = bodies(rand);
    let sent = 0;
    for (const route of routes) {
      const headers = { ...credentials(route), 'content-type': 'application/json' };
      if (route.body !== 'none') {
        for (const body of route.form === 'jsonrpc' ? [...jsonBodies, ...mcpBodies(connectionId)] : jsonBodies) {
          await send(route, route.method, concretePath(route), headers, body);
          sent++;
        }
      }
      if (route.body === 'multipart') {
        const parts: Array<[string, string | Uint8Array, string]> = [
          ...MULTIPART_PARTS.map(([name, content]): [string, string, string] => [name, content, 'text/markdown']),
          ...hostilePdfs.map(([name, content]): [string, Uint8Array, string] => [name, content, 'application/pdf']),
        ];
        for (const [name, content, type] of parts) {
          const form = new FormData();
          form.append('files', new Blob([content], { type }), name);
          const res = await fetch(`${new URL(t.baseUrl).origin}${concretePath(route)}`, { method: route.method, headers: credentials(route), body: form });
          record(`${route.method} ${route.path} multipart ${JSON.stringify(name.slice(0, 30))}`, route, res.status, await res.text());
          sent++;
        }
      }
      if (route.path.includes('{')) {
        for (const value of PARAM_VALUES) {
          await send(route, route.method, concretePath(route, value), headers, route.body === 'none' ? undefined : '{}');
          sent++;
        }
      }
      for (const query of QUERIES) {
        await send(route, route.method, `${concretePath(route)}${query}`, headers, route.body === 'none' ? undefined : '{}');
        sent++;
      }
      // Planted credentials: refused, never echoed.
      if (route.auth !== 'none') {
        await send(route, route.method, concretePath(route), { 'x-api-key': SECRET_KEY }, undefined);
        await send(route, route.method, concretePath(route), { authorization: `Bearer ${SECRET_JWT}` }, undefined);
        await send(route, route.method, concretePath(route), { authorization: `Basic ${SECRET_URL}` }, undefined);
        sent += 3;
      }
    }
    report('bodies');
    expect(anomalies, JSON.stringify(anomalies.slice(0, 20), null, 1)).toEqual([]);
    expect(sent).toBeGreaterThan(900);
    // Every route was reached with credentials that work: some answer other than 401/403.
    const unreached = routes.filter((r) => ![...(seen.get(r) ?? [])].some((s) => s !== 401 && s !== 403)).map((r) => `${r.method} ${r.path}`);
    expect(unreached).toEqual([]);
    // Validation answered, and some requests got through to the handlers.
    const all = new Set([...seen.values()].flatMap((s) => [...s]));
    expect([...all]).toEqual(expect.arrayContaining([200, 404, 422]));
  }, 600_000);

  it('NUL bytes and oversize values in headers and request lines', async () => {
    anomalies.length = 0;
    for (const route of routes) {
      const path = concretePath(route);
      const cred = route.auth === 'jwt' ? `authorization: Bearer ${jwt}` : `x-api-key: ${apiKey}`;
      const heads = [
        `${route.method} ${path} HTTP/1.1\r\nx-api-key: a\u0000b`,
        `${route.method} ${path} HTTP/1.1\r\nauthorization: Bearer ${SECRET_JWT}\u0000`,
        `${route.method} ${path}?a=\u0000 HTTP/1.1\r\n${cred}`,
        `${route.method} ${path}%00 HTTP/1.1\r\n${cred}`,
        `${route.method} ${path}?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${cred}`,
        `${route.method} ${path} HTTP/1.1\r\n${cred}\r\nx-long: ${'b'.repeat(20_000)}`,
        `${route.method} ${path} HTTP/1.1\r\n${cred}\r\ncontent-type: application/json\u0000`,
      ];
      for (const head of heads) {
        const res = await rawRequest(t.baseUrl, head, route.body === 'none' ? '' : '{"name":"a\\u0000"}');
        record(head.slice(0, 100), route, res.status, res.text);
      }
    }
    report('headers');
    const long = await rawRequest(t.baseUrl, `GET /api/v1/health?q=${'a'.repeat(20_000)} HTTP/1.1`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.text).error.code).toBe('HEADERS_TOO_LARGE');
    expect(anomalies, JSON.stringify(anomalies.slice(0, 20), null, 1)).toEqual([]);
  }, 300_000);
});
