import type { z } from 'zod';
import {
  analysisReportResponse,
  apiKeyCreatedResponse,
  apiKeyListResponse,
  apiKeyRevokedResponse,
  balanceResponse,
  documentDeletedResponse,
  documentListResponse,
  provisionedDatabaseResponse,
  provisionedListResponse,
  paymentsResponse,
  usageResponse,
  connectionListResponse,
  connectionResponse,
  executeAcceptedResponse,
  healthResponse,
  migrationRequestListResponse,
  migrationRequestResponse,
  documentBatchResponse,
  snapshotSummaryResponse,
  uploadResultResponse,
  checkoutResponse,
  contextQueryResponse,
  mcpResponse,
  openApiDocumentResponse,
  optimizationResponse,
  provisionedDatabaseCreatedResponse,
  sqlExecutionResponse,
  textToSqlResponse,
  webhookReceivedResponse,
} from './response-schemas';

/**
 * The route table: the single source of truth for every endpoint's method, path, handler
 * module, authorizer and billing. The local runtime, the cloud stack (infra/api.ts) and the
 * tests all read it. Handler `x` lives in `handlers/x.ts` and exports `handler`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * - `none`: no authorizer (health check, payment webhook, JWKS).
 * - `api_key_or_jwt`: the `api-key-or-jwt` authorizer; `X-API-Key` or `Authorization: Bearer`.
 * - `jwt`: the `jwt-only` authorizer; API keys are refused (API key management).
 */
export type AuthScheme = 'none' | 'api_key_or_jwt' | 'jwt';

export interface RouteDefinition {
  method: HttpMethod;
  /** Full path with `{param}` placeholders, as API Gateway writes it. */
  path: string;
  /** Module name under `handlers/`. */
  handler: string;
  auth: AuthScheme;
  /** Charged at the price per request (spec section 8) before the work is done. */
  billable: boolean;
  summary: string;
  /** HTTP status of a success (the OpenAPI document and the console read it). */
  status: number;
  /** `envelope`: `{success, data, error}`; `bare`: the spec's bare forms; `jsonrpc`: MCP; `html`: a page. */
  form: ResponseForm;
  /** How the request body arrives: JSON (validated by the handler's zod schema), multipart files, raw bytes, none. */
  body: RequestBodyKind;
  /**
   * What a success answers (response-schemas.ts): `data` of an envelope, or the whole bare body.
   * The OpenAPI document emits it, the CLI's client is typed from it ({@link ResponseOf}), and the
   * local runtime checks answers against it in tests. Undefined: not described yet.
   */
  response?: z.ZodType;
}

export type ResponseForm = 'envelope' | 'bare' | 'jsonrpc' | 'html';
export type RequestBodyKind = 'json' | 'multipart' | 'raw' | 'none';

interface RouteOptions<R extends z.ZodType | undefined> {
  status?: number;
  form?: ResponseForm;
  body?: RequestBodyKind;
  response?: R;
}

const route = <H extends string, R extends z.ZodType | undefined = undefined>(
  method: HttpMethod,
  path: string,
  handler: H,
  auth: AuthScheme,
  billable: boolean,
  summary: string,
  options: RouteOptions<R> = {},
): RouteDefinition & { handler: H; response: R } => ({
  method,
  path: `/api/v1${path}`,
  handler,
  auth,
  billable,
  summary,
  status: options.status ?? 200,
  form: options.form ?? 'envelope',
  body: options.body ?? (method === 'POST' || method === 'PATCH' || method === 'PUT' ? 'json' : 'none'),
  response: options.response as R,
});

const KEY = 'api_key_or_jwt' as const;

export const routes = [
  route('GET', '/health', 'health', 'none', false, 'Readiness check', { response: healthResponse }),
  route('GET', '/openapi.json', 'openapi', 'none', false, 'The OpenAPI 3.1 document', { form: 'bare', response: openApiDocumentResponse }),
  route('GET', '/docs', 'api-reference', 'none', false, 'The API reference page', { form: 'html' }),

  route('POST', '/connections', 'connections-create', KEY, false, 'Register a connection', { status: 201, response: connectionResponse }),
  route('GET', '/connections', 'connections-list', KEY, false, 'List connections', { response: connectionListResponse }),
  route('GET', '/connections/{connection_id}', 'connections-get', KEY, false, 'Read a connection', { response: connectionResponse }),
  route('PATCH', '/connections/{connection_id}', 'connections-update', KEY, false, 'Rename or re-point a connection', { response: connectionResponse }),
  route('DELETE', '/connections/{connection_id}', 'connections-delete', KEY, false, 'Deactivate a connection', { response: connectionResponse }),
  route('POST', '/connections/{connection_id}/introspect', 'connections-introspect', KEY, true, 'Snapshot the schema', {
    body: 'none',
    response: snapshotSummaryResponse,
  }),

  route('POST', '/connections/{connection_id}/migrations/analyze', 'migrations-analyze', KEY, true, 'Analyze a migration', {
    form: 'bare',
    response: analysisReportResponse,
  }),
  route('POST', '/migrations/execute', 'migrations-execute', KEY, false, 'Execute an approved migration', { status: 202, response: executeAcceptedResponse }),
  route('GET', '/migrations/requests/{request_id}', 'migrations-request-get', KEY, false, 'Poll a migration request', {
    form: 'bare',
    response: migrationRequestResponse,
  }),
  route('GET', '/connections/{connection_id}/migrations/requests', 'migrations-request-list', KEY, false, "List a connection's migration requests", {
    response: migrationRequestListResponse,
  }),

  route('POST', '/connections/{connection_id}/queries/optimize', 'queries-optimize', KEY, true, 'Optimize a query', {
    form: 'bare',
    response: optimizationResponse,
  }),
  route('POST', '/connections/{connection_id}/queries/generate', 'queries-generate', KEY, true, 'Text-to-SQL', { response: textToSqlResponse }),
  route('POST', '/execute', 'sql-execute', KEY, true, 'Run SQL with guardrails', { response: sqlExecutionResponse }),

  route('POST', '/connections/{connection_id}/documents/upload', 'documents-upload', KEY, false, 'Upload business documents', {
    body: 'multipart',
    response: uploadResultResponse,
  }),
  route('POST', '/connections/{connection_id}/documents/batches', 'documents-batch-create', KEY, false, 'Open an upload batch: one upload slot per file', {
    status: 201,
    response: documentBatchResponse,
  }),
  route(
    'POST',
    '/connections/{connection_id}/documents/batches/{batch_id}/confirm',
    'documents-batch-confirm',
    KEY,
    false,
    'Confirm an upload batch and queue its ingestion',
    {
      status: 202,
      body: 'none',
      response: documentBatchResponse,
    },
  ),
  route('GET', '/connections/{connection_id}/documents/batches/{batch_id}', 'documents-batch-get', KEY, false, 'Poll an upload batch', {
    response: documentBatchResponse,
  }),
  route('GET', '/connections/{connection_id}/documents', 'documents-list', KEY, false, 'List documents', { response: documentListResponse }),
  route('DELETE', '/connections/{connection_id}/documents/{document_id}', 'documents-delete', KEY, false, 'Delete a document', {
    response: documentDeletedResponse,
  }),
  route('POST', '/connections/{connection_id}/context/query', 'context-query', KEY, false, 'Schema and document context', { response: contextQueryResponse }),

  route('POST', '/api-keys', 'api-keys-create', 'jwt', false, 'Create an API key', { status: 201, response: apiKeyCreatedResponse }),
  route('GET', '/api-keys', 'api-keys-list', 'jwt', false, 'List active API keys', { response: apiKeyListResponse }),
  route('DELETE', '/api-keys/{key_id}', 'api-keys-revoke', 'jwt', false, 'Revoke an API key', { response: apiKeyRevokedResponse }),

  route('GET', '/billing/balance', 'billing-balance', KEY, false, 'Credit balance', { response: balanceResponse }),
  route('POST', '/billing/checkout', 'billing-checkout', KEY, false, 'Buy credits', { response: checkoutResponse }),
  route('GET', '/billing/usage', 'billing-usage', KEY, false, 'Last 100 billable requests', { response: usageResponse }),
  route('GET', '/billing/payments', 'billing-payments', KEY, false, 'Past payments', { response: paymentsResponse }),
  route('POST', '/billing/webhook', 'billing-webhook', 'none', false, 'Payment provider events', { body: 'raw', response: webhookReceivedResponse }),

  route('POST', '/provision', 'provision-create', KEY, false, 'Create a managed database', { status: 201, response: provisionedDatabaseCreatedResponse }),
  route('GET', '/provision', 'provision-list', KEY, false, 'List managed databases', { response: provisionedListResponse }),
  route('DELETE', '/provision/{provision_id}', 'provision-delete', KEY, false, 'Drop a managed database', { response: provisionedDatabaseResponse }),

  route('POST', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP endpoint', { form: 'jsonrpc', body: 'raw', response: mcpResponse }),
  // Stateless server: GET (server-initiated stream) and DELETE (session end) answer 405, as the transport spec allows.
  route('GET', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP: no standalone stream (405)', { status: 405, form: 'jsonrpc' }),
  route('DELETE', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP: no sessions (405)', { status: 405, form: 'jsonrpc' }),
] as const satisfies readonly RouteDefinition[];

export type RouteEntry = (typeof routes)[number];
export type HandlerName = RouteEntry['handler'];

/** What the route of handler `H` answers on success (its `data`, or its bare body), from its response schema. */
export type ResponseOf<H extends HandlerName> = Extract<RouteEntry, { handler: H }>['response'] extends infer R extends z.ZodType ? z.output<R> : never;

// The first route of a handler is its main one (MCP's POST; its GET and DELETE only answer 405).
const byHandler = new Map<string, RouteDefinition>();
for (const r of routes) if (!byHandler.has(r.handler)) byHandler.set(r.handler, r);

/** The route served by a handler module: the first the table lists for it. */
export function routeOf(handler: HandlerName): RouteDefinition {
  const r = byHandler.get(handler);
  if (!r) throw new Error(`no route for handler ${handler}`);
  return r;
}
