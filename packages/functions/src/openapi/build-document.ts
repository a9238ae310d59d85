import { ERROR_STATUS } from '@dbops/core/errors';
import { z } from 'zod';
import type { HandlerContract } from '../http/define-handler';
import type { RouteDefinition } from '../routes';

/** A JSON Schema (2020-12, which OpenAPI 3.1 uses as is) or any part of the document. */
type Json = Record<string, unknown>;

/** Reads the request schemas of one handler; the document never restates them. */
export type ContractLoader = (handler: string) => Promise<HandlerContract | undefined>;

export interface OpenApiDocument extends Json {
  openapi: '3.1.0';
  paths: Record<string, Record<string, Json>>;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Named schemas shared by the document (`components.schemas`), filled as the routes are described. */
type SharedSchemas = Record<string, Json>;

/**
 * A zod schema as the JSON Schema of what a client sends (before transforms and defaults), or
 * with `io: 'output'` of what it receives. A schema with an `id` (`.meta({ id })`, needed for a
 * recursive one such as a plan node) becomes a named component: zod writes it under the
 * fragment's own `$defs`, whose `#/$defs/...` references would resolve against the whole
 * document, so it moves to `components.schemas` and its references follow.
 */
export function toJsonSchema(schema: z.ZodType, shared: SharedSchemas, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _drop, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  const rename = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rename);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : rename(v)]),
    );
  };
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
    const moved = rename(def) as Json;
    const known = shared[name];
    if (known && JSON.stringify(known) !== JSON.stringify(moved)) throw new Error(`two different schemas are named ${name} in the OpenAPI document`);
    shared[name] = moved;
  }
  return rename(rest) as Json;
}

const components = (shared: SharedSchemas): Json => ({
  securitySchemes: {
    apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`dbo_...`) from POST /api/v1/api-keys.' },
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT from the identity provider (locally: `npm run token`).' },
  },
  schemas: {
    ErrorCode: { type: 'string', enum: Object.keys(ERROR_STATUS) },
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: ref('ErrorCode'), message: { type: 'string' } },
    },
    Envelope: {
      type: 'object',
      required: ['success', 'data', 'error'],
      properties: { success: { type: 'boolean' }, data: {}, error: { oneOf: [{ type: 'null' }, ref('Error')] } },
    },
    Failure: {
      type: 'object',
      required: ['success', 'data', 'error'],
      properties: { success: { const: false }, data: { type: 'null' }, error: ref('Error') },
    },
    ValidationError: {
      type: 'object',
      required: ['detail'],
      properties: {
        detail: {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] } },
              msg: { type: 'string' },
              type: { type: 'string' },
              input: {},
              ctx: { type: 'object' },
            },
          },
        },
      },
    },
    InsufficientCredits: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
    ...shared,
  },
});

const json = (schema: Json, description: string): Json => ({ description, content: { 'application/json': { schema } } });

const failure = (description: string): Json => json(ref('Failure'), description);

/** The success envelope with `data` described by the route's response schema. */
const envelopeOf = (data: Json): Json => ({
  type: 'object',
  required: ['success', 'data', 'error'],
  properties: { success: { const: true }, data, error: { type: 'null' } },
});

function successResponse(route: RouteDefinition, shared: SharedSchemas): Json {
  const description = route.summary;
  const schema = route.response ? toJsonSchema(route.response, shared, 'output') : undefined;
  switch (route.form) {
    case 'envelope':
      return json(schema ? envelopeOf(schema) : ref('Envelope'), description);
    case 'bare':
      return json(schema ?? { type: 'object' }, `${description} (the spec's bare form: fields at top level)`);
    case 'jsonrpc':
      return json(schema ?? { type: 'object' }, `${description} (JSON-RPC 2.0)`);
    case 'html':
      return { description, content: { 'text/html': { schema: { type: 'string' } } } };
  }
}

function errorResponses(route: RouteDefinition, contract: HandlerContract | undefined, hasPathParams: boolean): Json {
  const out: Json = {};
  if (route.auth !== 'none') {
    out['401'] = failure('No or invalid credentials (UNAUTHORIZED), or an invalid approval token (TOKEN_INVALID)');
    out['403'] = failure('Credentials refused for this route (FORBIDDEN) or a guardrail refused the statement (GUARDRAIL_VIOLATION)');
    out['429'] = failure('Rate limit reached (RATE_LIMITED); see Retry-After');
  }
  if (route.billable) out['402'] = json(ref('InsufficientCredits'), 'Not enough credits');
  if (hasPathParams) out['404'] = failure('No such resource for this user (NOT_FOUND)');
  if (contract?.body || contract?.params || contract?.query) out['422'] = json(ref('ValidationError'), 'The request failed validation');
  out['500'] = failure('Unexpected failure (INTERNAL_ERROR); the body never carries a stack trace');
  return out;
}

const pathParamNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

function parameters(path: string, contract: HandlerContract | undefined, shared: SharedSchemas): Json[] {
  const out: Json[] = [];
  const pathSchema = contract?.params ? toJsonSchema(contract.params, shared) : undefined;
  const pathProps = (pathSchema?.properties ?? {}) as Record<string, Json>;
  for (const name of pathParamNames(path)) out.push({ name, in: 'path', required: true, schema: pathProps[name] ?? { type: 'string' } });
  if (contract?.query) {
    const querySchema = toJsonSchema(contract.query, shared);
    const required = new Set((querySchema.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((querySchema.properties ?? {}) as Record<string, Json>)) {
      out.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return out;
}

function requestBody(route: RouteDefinition, contract: HandlerContract | undefined, shared: SharedSchemas): Json | undefined {
  switch (route.body) {
    case 'none':
      return undefined;
    case 'json':
      return contract?.body ? { required: true, content: { 'application/json': { schema: toJsonSchema(contract.body, shared) } } } : undefined;
    case 'multipart':
      return {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['files'],
              properties: { files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } },
            },
          },
        },
      };
    case 'raw':
      return { required: true, description: 'Read as raw bytes (a signed provider event, or JSON-RPC 2.0)', content: { 'application/json': { schema: {} } } };
  }
}

const operationId = (route: RouteDefinition, duplicated: boolean): string => {
  const camel = route.handler.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return duplicated ? `${camel}${route.method[0]}${route.method.slice(1).toLowerCase()}` : camel;
};

const tagOf = (path: string): string =>
  path
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter((s) => !s.startsWith('{'))[0] ?? 'service';

const SECURITY: Record<RouteDefinition['auth'], Json[]> = {
  none: [],
  api_key_or_jwt: [{ apiKey: [] }, { bearer: [] }],
  jwt: [{ bearer: [] }],
};

/**
 * The OpenAPI 3.1 document of every route in the table: paths, methods, auth and billing
 * from the route table, request schemas from the handlers' own zod schemas, success bodies from
 * the route table's response schemas (response-schemas.ts), which every JSON route has (the
 * generic envelope, or an object for the spec's bare form, is only the fallback).
 */
export async function buildOpenApiDocument(routes: readonly RouteDefinition[], loadContract: ContractLoader): Promise<OpenApiDocument> {
  const perHandler = new Map<string, number>();
  for (const r of routes) perHandler.set(r.handler, (perHandler.get(r.handler) ?? 0) + 1);

  const paths: OpenApiDocument['paths'] = {};
  const shared: SharedSchemas = {};
  for (const route of routes) {
    const contract = await loadContract(route.handler);
    const params = parameters(route.path, contract, shared);
    const body = requestBody(route, contract, shared);
    const operation: Json = {
      operationId: operationId(route, (perHandler.get(route.handler) ?? 0) > 1),
      summary: route.summary,
      tags: [tagOf(route.path)],
      security: SECURITY[route.auth],
      'x-dbops-billable': route.billable,
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: { [String(route.status)]: successResponse(route, shared), ...errorResponses(route, contract, pathParamNames(route.path).length > 0) },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'dbops',
      version: '1.0.0',
      description:
        'Database operations for PostgreSQL: connections, introspection, migration analysis and approved execution, query optimization, text-to-SQL, SQL with guardrails, documents, API keys, billing and managed databases.',
    },
    servers: [{ url: '/' }],
    components: components(shared),
    paths,
  };
}
