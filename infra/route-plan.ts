/**
 * The cloud wiring of the route table, as plain data. `infra/api.ts` turns it into API Gateway
 * routes and Lambda functions; tests and the bundle benchmark import it without SST's globals,
 * so everything here is a pure function of packages/functions/src/routes.ts.
 */
import { type AuthScheme, type HandlerName, type RouteDefinition, routes } from '../packages/functions/src/routes';

/** Upload bucket access (kept here as plain data; infra/function-defaults.ts turns it into IAM). */
export type UploadAccess = 'sign' | 'check' | 'ingest';

/** Where the handler modules live, relative to the repository root. */
export const HANDLERS_DIR = 'packages/functions/src/handlers';
export const ENTRIES_DIR = 'packages/functions/src/entries';
/** Handlers whose function starts from `entries/<handler>.ts`, which registers the handler loaders (MCP runs the other handlers; the OpenAPI document and reference read their schemas). */
export const COMPOSED_HANDLERS = ['mcp', 'openapi', 'api-reference'] as const;

/** The two Lambda authorizers, by module name under packages/functions/src/authorizers. */
export type AuthorizerName = 'api-key-or-jwt' | 'jwt-only';

export const AUTHORIZER_MODULES: Record<AuthorizerName, string> = {
  'api-key-or-jwt': 'packages/functions/src/authorizers/api-key-or-jwt.ts',
  'jwt-only': 'packages/functions/src/authorizers/jwt-only.ts',
};

/** The SQS-triggered migration executor and the deploy-time migration function. */
export const EXECUTOR_MODULE = 'packages/functions/src/executor/migration-executor.ts';
export const DEPLOY_MIGRATE_MODULE = 'packages/functions/src/deploy/migrate.ts';
/** The SQS-triggered document ingestion (upload slots). */
export const DOCUMENTS_INGEST_MODULE = 'packages/functions/src/executor/documents-ingest.ts';

/** The authorizer of each auth scheme; `none` routes (health, payment webhook) get none. */
export const authorizerOf = (auth: AuthScheme): AuthorizerName | null => (auth === 'none' ? null : auth === 'jwt' ? 'jwt-only' : 'api-key-or-jwt');

/** `packages/x/y.ts` -> `packages/x/y.handler`, the form SST's `handler` takes. */
export const lambdaHandler = (modulePath: string): string => `${modulePath.replace(/\.ts$/, '')}.handler`;

/** `connections-get` -> `ConnectionsGet`: a stable, readable Pulumi resource name. */
export const pascalName = (kebab: string): string =>
  kebab
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** Memory and timeout of a function; API Gateway HTTP APIs cut integrations at 30 s. */
export interface FunctionSizing {
  memoryMb: number;
  timeoutSeconds: number;
}

export const DEFAULT_SIZING: FunctionSizing = { memoryMb: 512, timeoutSeconds: 20 };

/**
 * Handlers that parse SQL (WASM parser), run the PGlite sandbox, render PDFs or call a
 * language model get more memory (Lambda's CPU share grows with it) and the longest timeout
 * API Gateway allows.
 */
export const SIZING_OVERRIDES: Partial<Record<HandlerName, FunctionSizing>> = {
  'connections-introspect': { memoryMb: 1024, timeoutSeconds: 29 },
  'migrations-analyze': { memoryMb: 2048, timeoutSeconds: 29 },
  'migrations-execute': { memoryMb: 1024, timeoutSeconds: 29 },
  'queries-optimize': { memoryMb: 1024, timeoutSeconds: 29 },
  'queries-generate': { memoryMb: 1024, timeoutSeconds: 29 },
  'sql-execute': { memoryMb: 1024, timeoutSeconds: 29 },
  'documents-upload': { memoryMb: 2048, timeoutSeconds: 29 },
  'context-query': { memoryMb: 1024, timeoutSeconds: 29 },
  'provision-create': { memoryMb: 1024, timeoutSeconds: 29 },
  mcp: { memoryMb: 2048, timeoutSeconds: 29 },
  openapi: { memoryMb: 1024, timeoutSeconds: 29 },
  'api-reference': { memoryMb: 1024, timeoutSeconds: 29 },
};

/**
 * Packages that cannot be inlined by esbuild because they read files next to their own code
 * at run time (WASM binaries, the PGlite data bundle, pdf.js's worker). SST's
 * `nodejs.install` keeps them external and ships them in the function's node_modules, so only
 * the functions that import them pay for their size.
 */
export const HEAVY_PACKAGES = ['libpg-query', '@electric-sql/pglite', 'pdfjs-dist'] as const;
export type HeavyPackage = (typeof HEAVY_PACKAGES)[number];

/**
 * Handlers whose own work needs the parser or the PGlite sandbox (analysis, execution planning,
 * optimization, text-to-SQL validation, guardrails), and the ones that read PDFs. The MCP
 * endpoint exposes the same tools, so it is in both. Used for the cold-init target and sizing.
 */
export const PARSER_HANDLERS: readonly HandlerName[] = [
  'migrations-analyze',
  'migrations-execute',
  'queries-optimize',
  'queries-generate',
  'sql-execute',
  'mcp',
  // They load every handler module to read its schemas (once per instance).
  'openapi',
  'api-reference',
];
export const PDF_HANDLERS: readonly HandlerName[] = ['documents-upload', 'mcp', 'openapi', 'api-reference'];

/**
 * The heavy packages shipped with a function (SST `nodejs.install`). The parser (1.2 MB) goes to
 * every function: handlers keep gaining SQL parsing, and a function that imports it without
 * shipping it fails at cold start. PGlite is shipped everywhere but loaded only on demand: the
 * container imports it dynamically when no DBOPS_DATABASE_URL is set, and the migration sandbox
 * when it runs, so cloud cold starts do not load it. pdf.js (39 MB) only where PDFs are read.
 * test/infra/bundles.test.ts fails when a bundle imports a heavy package this list lacks.
 */
export function installFor(entry: HandlerName | 'executor' | 'documents-ingest' | 'deploy-migrate' | AuthorizerName): HeavyPackage[] {
  // The deploy-time migrator imports the pg store by deep path and needs none of them.
  if (entry === 'deploy-migrate') return [];
  const list: HeavyPackage[] = ['libpg-query', '@electric-sql/pglite'];
  if ((PDF_HANDLERS as readonly string[]).includes(entry) || entry === 'documents-ingest') list.push('pdfjs-dist');
  return list;
}

/** One API route as deployed. */
export interface RoutePlan {
  /** API Gateway route key, e.g. `GET /api/v1/connections/{connection_id}`. */
  routeKey: string;
  method: RouteDefinition['method'];
  path: string;
  handlerName: HandlerName;
  /** The function serving it (one per handler module). */
  functionName: string;
  /** `packages/functions/src/handlers/<handler>.handler` */
  lambdaHandler: string;
  handlerFile: string;
  authorizer: AuthorizerName | null;
  billable: boolean;
}

/** One Lambda function per handler module. */
export interface FunctionPlan {
  functionName: string;
  handlerName: HandlerName;
  handlerFile: string;
  lambdaHandler: string;
  sizing: FunctionSizing;
  install: HeavyPackage[];
  /** Functions that send migration jobs get sqs:SendMessage. */
  enqueues: boolean;
  /** Upload bucket access (upload slots), or null. */
  uploads: UploadAccess | null;
  /** Functions that queue document batches get sqs:SendMessage on the document queue. */
  enqueuesDocuments: boolean;
}

/** Upload bucket access of the handlers that hand out slots and confirm batches. */
export const UPLOAD_ACCESS: Partial<Record<HandlerName, UploadAccess>> = {
  'documents-batch-create': 'sign',
  'documents-batch-confirm': 'check',
};

/** Handlers that queue document batches for ingestion. */
export const DOCUMENT_QUEUE_SENDERS: readonly HandlerName[] = ['documents-batch-confirm'];

/** Handlers that enqueue migration jobs. */
export const QUEUE_SENDERS: readonly HandlerName[] = ['migrations-execute', 'mcp'];

type RouteRow = RouteDefinition & { handler: HandlerName };

/** Every route of the table with its function and authorizer. */
export function planRoutes(table: readonly RouteRow[] = routes): RoutePlan[] {
  const keys = new Set<string>();
  return table.map((r) => {
    const routeKey = `${r.method} ${r.path}`;
    if (keys.has(routeKey)) throw new Error(`duplicate route ${routeKey}`);
    keys.add(routeKey);
    // Handlers that reach the other handler modules start from an entry that registers their loaders.
    const handlerFile = (COMPOSED_HANDLERS as readonly string[]).includes(r.handler) ? `${ENTRIES_DIR}/${r.handler}.ts` : `${HANDLERS_DIR}/${r.handler}.ts`;
    return {
      routeKey,
      method: r.method,
      path: r.path,
      handlerName: r.handler,
      functionName: `Api${pascalName(r.handler)}`,
      lambdaHandler: lambdaHandler(handlerFile),
      handlerFile,
      authorizer: authorizerOf(r.auth),
      billable: r.billable,
    };
  });
}

/** The functions behind the routes: one per handler module, even if it serves several routes. */
export function planFunctions(table: readonly RouteRow[] = routes): FunctionPlan[] {
  const seen = new Map<string, FunctionPlan>();
  for (const r of planRoutes(table)) {
    if (seen.has(r.handlerName)) continue;
    seen.set(r.handlerName, {
      functionName: r.functionName,
      handlerName: r.handlerName,
      handlerFile: r.handlerFile,
      lambdaHandler: r.lambdaHandler,
      sizing: SIZING_OVERRIDES[r.handlerName] ?? DEFAULT_SIZING,
      install: installFor(r.handlerName),
      enqueues: QUEUE_SENDERS.includes(r.handlerName),
      uploads: UPLOAD_ACCESS[r.handlerName] ?? null,
      enqueuesDocuments: DOCUMENT_QUEUE_SENDERS.includes(r.handlerName),
    });
  }
  return [...seen.values()];
}
