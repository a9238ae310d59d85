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
}

const route = <H extends string>(
  method: HttpMethod,
  path: string,
  handler: H,
  auth: AuthScheme,
  billable: boolean,
  summary: string,
): RouteDefinition & { handler: H } => ({ method, path: `/api/v1${path}`, handler, auth, billable, summary });

const KEY = 'api_key_or_jwt' as const;

export const routes = [
  route('GET', '/health', 'health', 'none', false, 'Readiness check'),

  route('POST', '/connections', 'connections-create', KEY, false, 'Register a connection'),
  route('GET', '/connections', 'connections-list', KEY, false, 'List connections'),
  route('GET', '/connections/{connection_id}', 'connections-get', KEY, false, 'Read a connection'),
  route('PATCH', '/connections/{connection_id}', 'connections-update', KEY, false, 'Rename or re-point a connection'),
  route('DELETE', '/connections/{connection_id}', 'connections-delete', KEY, false, 'Deactivate a connection'),
  route('POST', '/connections/{connection_id}/introspect', 'connections-introspect', KEY, true, 'Snapshot the schema'),

  route('POST', '/connections/{connection_id}/migrations/analyze', 'migrations-analyze', KEY, true, 'Analyze a migration'),
  route('POST', '/migrations/execute', 'migrations-execute', KEY, false, 'Execute an approved migration'),
  route('GET', '/migrations/requests/{request_id}', 'migrations-request-get', KEY, false, 'Poll a migration request'),
  route('GET', '/connections/{connection_id}/migrations/requests', 'migrations-request-list', KEY, false, "List a connection's migration requests"),

  route('POST', '/connections/{connection_id}/queries/optimize', 'queries-optimize', KEY, true, 'Optimize a query'),
  route('POST', '/connections/{connection_id}/queries/generate', 'queries-generate', KEY, true, 'Text-to-SQL'),
  route('POST', '/execute', 'sql-execute', KEY, true, 'Run SQL with guardrails'),

  route('POST', '/connections/{connection_id}/documents/upload', 'documents-upload', KEY, false, 'Upload business documents'),
  route('GET', '/connections/{connection_id}/documents', 'documents-list', KEY, false, 'List documents'),
  route('DELETE', '/connections/{connection_id}/documents/{document_id}', 'documents-delete', KEY, false, 'Delete a document'),
  route('POST', '/connections/{connection_id}/context/query', 'context-query', KEY, false, 'Schema and document context'),

  route('POST', '/api-keys', 'api-keys-create', 'jwt', false, 'Create an API key'),
  route('GET', '/api-keys', 'api-keys-list', 'jwt', false, 'List active API keys'),
  route('DELETE', '/api-keys/{key_id}', 'api-keys-revoke', 'jwt', false, 'Revoke an API key'),

  route('GET', '/billing/balance', 'billing-balance', KEY, false, 'Credit balance'),
  route('POST', '/billing/checkout', 'billing-checkout', KEY, false, 'Buy credits'),
  route('GET', '/billing/usage', 'billing-usage', KEY, false, 'Last 100 billable requests'),
  route('GET', '/billing/payments', 'billing-payments', KEY, false, 'Past payments'),
  route('POST', '/billing/webhook', 'billing-webhook', 'none', false, 'Payment provider events'),

  route('POST', '/provision', 'provision-create', KEY, false, 'Create a managed database'),
  route('GET', '/provision', 'provision-list', KEY, false, 'List managed databases'),
  route('DELETE', '/provision/{provision_id}', 'provision-delete', KEY, false, 'Drop a managed database'),

  route('POST', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP endpoint'),
  // Stateless server: GET (server-initiated stream) and DELETE (session end) answer 405, as the transport spec allows.
  route('GET', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP: no standalone stream (405)'),
  route('DELETE', '/mcp', 'mcp', KEY, false, 'MCP streamable HTTP: no sessions (405)'),
] as const satisfies readonly RouteDefinition[];


export type RouteEntry = (typeof routes)[number];
export type HandlerName = RouteEntry['handler'];

const byHandler = new Map<string, RouteDefinition>(routes.map((r) => [r.handler, r]));

/** The route served by a handler module. */
export function routeOf(handler: HandlerName): RouteDefinition {
  const r = byHandler.get(handler);
  if (!r) throw new Error(`no route for handler ${handler}`);
  return r;
}
