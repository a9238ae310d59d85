import { loadSettings } from '@dbops/core/config';
import type { HttpResult } from '@dbops/functions/http';
import { type RouteDefinition, routes } from '@dbops/functions/routes';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { CONSOLE_DIST } from '@dbops/web/build';
import { createGateway } from '../gateway/emulator';
import { secureHome } from '../home-permissions';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalIssuer, loadLocalIssuer } from '../local-issuer';
import { createConsoleFiles } from '../static/console-files';
import { InvokeError, type FunctionSpec, LocalLambdaService } from './lambda-service';
import { EventSourceMapping, LocalSqs, type LocalQueue } from './local-sqs';
import { type BucketOptions, LocalS3 } from './s3/local-s3';
import { startStateServer, type StateServer } from './state-server';

/** The functions of a deploy, as infra/local-cloud.ts builds them, with the upload bucket's rules. */
export interface BuiltFunctions {
  functions: readonly FunctionSpec[];
  bootstrap: string;
  /** CORS and lifecycle rules of the upload bucket (infra/upload-bucket.ts); none when absent. */
  uploadBucket?: BucketOptions;
}

/** Options of {@link startCloudRuntime}; every field has a default. */
export interface CloudRuntimeOptions {
  functions: BuiltFunctions;
  /** Port to listen on; 0 picks a free one. Default `PORT` or 4000. */
  port?: number;
  host?: string;
  /** Environment to read settings from (and the `DBOPS_*` variables handed to the functions). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Built web console served at `/`; default packages/web/dist, null serves none. */
  consoleDir?: string | null;
  /** Shorter queue timing for tests and drills: the consumers' timeout and the queues' visibility timeout. */
  queues?: { consumerTimeoutSeconds?: number; visibilityTimeoutMs?: number; maxReceiveCount?: number };
  /**
   * Multiplies the API functions' and authorizers' timeouts (infra's 10-29 s). Tests on a shared
   * two-core machine set it above 1: a Lambda instance has its own CPU share, forty function
   * processes here share two cores. Default 1.
   */
  apiTimeoutScale?: number;
  /** Most concurrent instances per function. Default 8. */
  maxConcurrency?: number;
  /** Checks each answer before it is sent, as `startLocalRuntime`'s `checkResponses` (tests). */
  checkResponse?(route: RouteDefinition, result: HttpResult): string | null;
  /** Logs of the runtime itself (deploy migration, dead letters). Default stderr. */
  log?(message: string): void;
}

export interface CloudRuntime {
  baseUrl: string;
  origin: string;
  home: string;
  issuer: LocalIssuer;
  /** The state database (RDS's stand-in). */
  databaseUrl: string;
  lambda: LocalLambdaService;
  sqs: LocalSqs;
  /** The local S3 and the upload bucket the functions' slots point at. */
  s3: LocalS3;
  uploadBucket: string;
  queues: { migrations: LocalQueue; migrationsDeadLetter: LocalQueue; documents: LocalQueue; documentsDeadLetter: LocalQueue };
  mappings: { migrations: EventSourceMapping; documents: EventSourceMapping };
  /** What the deploy-time migrator answered. */
  deployMigration: unknown;
  close(): Promise<void>;
}

/** infra/queue.ts and infra/document-uploads.ts: 3 receives, then the dead-letter queue. */
const MAX_RECEIVES = 3;
/** The upload bucket (SST names it after the app, stage and resource). */
const UPLOAD_BUCKET = 'dbops-local-documentuploads';

const envelope = (status: number, code: string, message: string): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ success: false, data: null, error: { code, message } }),
});

async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The deployed shape on one machine (`npm run start:cloud`): every request goes through the
 * built Lambda bundles, each function in processes of its own (lambda-service.ts), behind the
 * same API Gateway emulator as `npm start` with the real authorizer bundles (TTL 0: invoked for
 * every request). State is PostgreSQL with pgvector through the RDS store, migrated by the
 * deploy-migrate bundle as a deploy does. The migration and document queues are SQS semantics
 * (local-sqs.ts): the functions' SQS adapter sends through the SDK, an event source mapping
 * hands batches to the consumer bundles and deletes only what they did not report failed. Upload
 * slots are presigned POSTs to a local S3 (s3/local-s3.ts) that the functions' S3 adapter reaches
 * through the SDK, with the stack's CORS and lifecycle rules on the bucket.
 */
export async function startCloudRuntime(options: CloudRuntimeOptions): Promise<CloudRuntime> {
  const env = options.env ?? process.env;
  const settings = loadSettings(env);
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  await secureHome(settings.home);
  const home = settings.home;

  let stateServer: StateServer | undefined;
  let databaseUrl = settings.databaseUrl;
  if (!databaseUrl) {
    stateServer = await startStateServer(home);
    databaseUrl = await ensureDatabase(stateServer.adminUrl, 'dbops');
  }
  const issuer = await loadLocalIssuer(home);

  const sqs = new LocalSqs();
  await sqs.listen();
  // The functions' one AWS key, as their execution role would give them; the local S3 checks
  // every signature with it (a new secret each start: nothing outside this runtime needs it).
  const credentials = { accessKeyId: 'LOCALDBOPS', secretAccessKey: randomBytes(30).toString('base64url') };
  const s3 = new LocalS3({ dir: path.join(home, 'cloud-s3'), credentials, log });
  await s3.listen();
  await s3.createBucket(UPLOAD_BUCKET, options.functions.uploadBucket ?? {});

  // The functions' environment needs the gateway's origin (the JWKS URL), so the service starts after it listens.
  const late: { lambda?: LocalLambdaService } = {};
  const functionNames = new Set(options.functions.functions.map((f) => f.name));
  const invokeRoute = async (route: RouteDefinition, event: unknown): Promise<unknown> => {
    try {
      return await late.lambda!.invoke(route.handler, event);
    } catch (error) {
      // API Gateway answers a function timeout with 503 and a failed invocation with 500.
      if (error instanceof InvokeError && error.kind === 'Sandbox.Timedout') return envelope(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable');
      throw error;
    }
  };
  const authorizers = {
    api_key_or_jwt: (event: APIGatewayRequestAuthorizerEventV2) =>
      late.lambda!.invoke('authorizer-api-key-or-jwt', event) as Promise<{ isAuthorized: boolean; context?: object }>,
    jwt: (event: APIGatewayRequestAuthorizerEventV2) =>
      late.lambda!.invoke('authorizer-jwt-only', event) as Promise<{ isAuthorized: boolean; context?: object }>,
  };
  for (const r of routes) if (!functionNames.has(r.handler)) throw new Error(`no built function for handler ${r.handler}`);

  const server = createGateway({
    routes,
    maxBodyBytes: settings.maxBodyBytes,
    loadHandler: async (route) => async (event) => (await invokeRoute(route, event)) as HttpResult,
    authorizerFor: (route) => (route.auth === 'none' ? undefined : authorizers[route.auth]),
    extraRoutes: {
      'GET /.well-known/jwks.json': () => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(issuer.jwks),
      }),
    },
    onError: (error) => log(`gateway error: ${(error as Error).message}`),
    ...(options.checkResponse ? { checkResponse: options.checkResponse } : {}),
    // The console's page sends files to its slots on the local S3, as the deployed one to the bucket.
    ...(options.consoleDir === null ? {} : { staticFiles: createConsoleFiles(options.consoleDir ?? CONSOLE_DIST, [s3.origin]) }),
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? settings.port, host, () => resolve());
  });
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  // Consumers: infra's timeout (14 min) and a visibility timeout one minute longer, unless shortened.
  const consumerTimeout = options.queues?.consumerTimeoutSeconds;
  const visibilityTimeoutMs = options.queues?.visibilityTimeoutMs ?? ((consumerTimeout ?? 14 * 60) + 60) * 1000;
  const maxReceiveCount = options.queues?.maxReceiveCount ?? MAX_RECEIVES;
  const migrationsDeadLetter = sqs.createQueue({ name: 'dbops-local-MigrationDeadLetter', visibilityTimeoutMs: 30_000 });
  const migrations = sqs.createQueue({ name: 'dbops-local-MigrationQueue', visibilityTimeoutMs, maxReceiveCount, deadLetter: migrationsDeadLetter });
  const documentsDeadLetter = sqs.createQueue({ name: 'dbops-local-DocumentDeadLetter', visibilityTimeoutMs: 30_000 });
  const documents = sqs.createQueue({ name: 'dbops-local-DocumentQueue', visibilityTimeoutMs, maxReceiveCount, deadLetter: documentsDeadLetter });

  // The deploy's environment (infra/function-defaults.ts), with local stand-ins for what has one.
  const passThrough = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string' && /^(DBOPS_|OPENAI_|STRIPE_)/.test(e[0])),
  );
  const functionEnv: Record<string, string> = {
    PATH: env.PATH ?? '/usr/bin:/bin',
    ...passThrough,
    DBOPS_MODE: 'cloud',
    // The cloud refuses users' databases on private addresses unless the operator allows them;
    // on one machine they are usually on loopback, so loopback is allowed unless set otherwise.
    DBOPS_ALLOWED_HOSTS: env.DBOPS_ALLOWED_HOSTS ?? '127.0.0.0/8,::1,localhost',
    DBOPS_HOME: home,
    DBOPS_DATABASE_URL: databaseUrl,
    DBOPS_MIGRATE_ON_START: 'false',
    DBOPS_JWT_ISSUER: LOCAL_ISSUER,
    DBOPS_JWT_AUDIENCE: LOCAL_AUDIENCE,
    DBOPS_JWT_JWKS_URL: `${origin}/.well-known/jwks.json`,
    DBOPS_MIGRATION_QUEUE_URL: migrations.url,
    DBOPS_DOCUMENT_QUEUE_URL: documents.url,
    DBOPS_SHARED_INSTANCE_URL: env.DBOPS_SHARED_INSTANCE_URL ?? stateServer?.adminUrl ?? databaseUrl,
    DBOPS_LOG_LEVEL: settings.logLevel,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_SQS: sqs.origin,
    DBOPS_UPLOAD_BUCKET: UPLOAD_BUCKET,
    DBOPS_S3_ENDPOINT: s3.origin,
    // The deploy runs nodejs22.x; the SDK's warning about this machine's older Node says nothing of it.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const consumers = new Set(['executor', 'documents-ingest']);
  const scale = options.apiTimeoutScale ?? 1;
  const specs = options.functions.functions.map((f) => {
    if (consumers.has(f.name)) return consumerTimeout === undefined ? f : { ...f, sizing: { ...f.sizing, timeoutSeconds: consumerTimeout } };
    if (f.name === 'deploy-migrate') return f;
    return { ...f, sizing: { ...f.sizing, timeoutSeconds: f.sizing.timeoutSeconds * scale } };
  });
  const lambda = new LocalLambdaService({
    functions: specs,
    bootstrap: options.functions.bootstrap,
    env: functionEnv,
    ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
  });
  late.lambda = lambda;

  let deployMigration: unknown;
  try {
    deployMigration = await lambda.invoke('deploy-migrate', {});
  } catch (error) {
    await lambda.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sqs.close();
    await s3.close();
    await stateServer?.stop();
    throw new Error(`the deploy migration failed: ${(error as Error).message}`, { cause: error });
  }
  // The deploy-time migrator runs once; it needs no warm instance.
  lambda.recycle('deploy-migrate');

  const invoke = (name: string, event: unknown) => lambda.invoke(name, event);
  const onError = (queue: string) => (error: unknown, ids: string[]) =>
    log(`${queue}: invocation failed, ${ids.length} message(s) left for redelivery: ${(error as Error).message}`);
  const mappings = {
    migrations: new EventSourceMapping({ queue: migrations, functionName: 'executor', invoke, batchSize: 1, onError: onError('migration queue') }),
    documents: new EventSourceMapping({ queue: documents, functionName: 'documents-ingest', invoke, batchSize: 1, onError: onError('document queue') }),
  };

  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    home,
    issuer,
    databaseUrl,
    lambda,
    sqs,
    s3,
    uploadBucket: UPLOAD_BUCKET,
    queues: { migrations, migrationsDeadLetter, documents, documentsDeadLetter },
    mappings,
    deployMigration,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.all([mappings.migrations.stop(), mappings.documents.stop()]);
      await lambda.close();
      await sqs.close();
      await s3.close();
      await stateServer?.stop();
    },
  };
}
