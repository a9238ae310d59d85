import path from 'node:path';
import { envSchema, type ParsedEnv, SECRET_VARIABLE_PREFIX, SETTING_NAMES } from './settings/env-schema';

export type LogLevel = ParsedEnv['DBOPS_LOG_LEVEL'];

/** Settings of migration execution (docs/migration-execution.md). */
export interface ExecutionSettings {
  /** `lock_timeout` of each statement on the user's database (`DBOPS_MIGRATION_LOCK_TIMEOUT_MS`, default 5000). */
  lockTimeoutMs: number;
  /** `statement_timeout` of each statement (`DBOPS_MIGRATION_STATEMENT_TIMEOUT_MS`, default 300000 = 5 min). */
  statementTimeoutMs: number;
  /** Extra attempts after a lock timeout (`DBOPS_MIGRATION_LOCK_RETRIES`, default 3). */
  lockRetries: number;
  /** First backoff before a lock retry; doubles each time, full jitter (`DBOPS_MIGRATION_LOCK_RETRY_BASE_MS`, default 500). */
  lockRetryBaseMs: number;
  /** Cap of one backoff (`DBOPS_MIGRATION_LOCK_RETRY_MAX_MS`, default 8000). */
  lockRetryMaxMs: number;
  /** How long an executor owns a running request without a heartbeat (`DBOPS_MIGRATION_LEASE_SECONDS`, default 60). */
  leaseMs: number;
  /** How often the executor renews its lease (`DBOPS_MIGRATION_HEARTBEAT_SECONDS`, default lease / 4). */
  heartbeatMs: number;
  /** A request still `pending` after this long is failed as never started (`DBOPS_MIGRATION_PENDING_TIMEOUT_SECONDS`, default 900). */
  pendingTimeoutMs: number;
}

/** Settings of query optimization (docs/query-optimization.md). */
export interface OptimizationSettings {
  /** Statement timeout of EXPLAIN ANALYZE runs (`DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS`, default 30000). */
  analyzeTimeoutMs: number;
  /** Statement timeout of every other statement on the user's database (`DBOPS_OPTIMIZE_STATEMENT_TIMEOUT_MS`, default 15000). */
  statementTimeoutMs: number;
  /** Document chunks retrieved as context (`DBOPS_OPTIMIZE_DOC_CHUNKS`, default 5). */
  documentChunks: number;
  /** `auto` uses HypoPG where the database has it; `off` never touches it (`DBOPS_OPTIMIZE_HYPOPG`, default auto). */
  hypopg: 'auto' | 'off';
  /** `offline` (default) or `openai` (`DBOPS_INDEX_SUGGESTER`). */
  suggester: 'offline' | 'openai';
  /** Chat model of the OpenAI index suggester (`DBOPS_OPTIMIZE_MODEL`). */
  model: string | undefined;
}

/** The analysis sandbox's engines, cache and limits (docs/migration-analysis.md). */
export interface SandboxSettings {
  /** `DBOPS_SANDBOX_SERVER_URL`: a dedicated throwaway server. A secret: never logged or echoed. */
  serverUrl: string | undefined;
  /** `DBOPS_SANDBOX_SERVER_MODE`, default `extensions`. */
  serverMode: 'extensions' | 'always';
  /** Hard deadline of one sandbox run (`DBOPS_SANDBOX_DEADLINE_MS`; unset: the apply budget plus 15 s, 25 s; at most the gateway window less 5 s). */
  deadlineMs: number | undefined;
  /** Sandbox threads (`DBOPS_SANDBOX_THREADS`; unset: 2). */
  threads: number | undefined;
  /** Clone cache bytes in memory (`DBOPS_SANDBOX_CACHE_MB`, default 256). */
  cacheMemoryBytes: number;
  /** Clone cache bytes on disk (`DBOPS_SANDBOX_CACHE_DISK_MB`, default 1024). */
  cacheDiskBytes: number;
  /** `DBOPS_SANDBOX_CACHE_DIR`, default `<home>/sandbox-cache`. */
  cacheDir: string;
  /** `DBOPS_SANDBOX_ENGINE`: `auto` (PGlite where exact, else PostgreSQL of the target's version), `pglite` or `embedded`. */
  engine: 'auto' | 'pglite' | 'embedded';
  /** `DBOPS_SANDBOX_PG_DIR`: prepared data directories of the embedded engine, default `dbops-sandbox-pg` in the temp dir. */
  pgDir: string | undefined;
  /** `DBOPS_SANDBOX_PG_SEED_DIR`: read-only prepared data directories made ahead (the analysis function's container image), copied from instead of running initdb. */
  pgSeedDir: string | undefined;
  /** `DBOPS_SANDBOX_MEMORY_MB`: private memory of one embedded run's backends together, past which they are ended (default 1024). */
  memoryMb: number;
  /** `DBOPS_ANALYSIS_CONCURRENCY_PER_USER`: analyses one user may have running at once in one process (default 4); more answer 429. */
  concurrencyPerUser: number;
  /** `DBOPS_SANDBOX_PREWARM` (default true): in local mode, build the clone for the next analysis right after each introspection. */
  prewarm: boolean;
}

/** What a safe plan's batched step is offered with (docs/migration-analysis.md, Safe plans); the plan's text carries them to the executor. */
export interface SafePlanSettings {
  /** Rows per batch (`DBOPS_SAFE_PLAN_BATCH_SIZE`, default 5000, at most 1,000,000). */
  batchSize: number;
  /** Pause between batches in milliseconds (`DBOPS_SAFE_PLAN_BATCH_PAUSE_MS`, default 0, at most 60,000). */
  batchPauseMs: number;
  /** Rows from which a table's scan, rewrite, index build or UPDATE/DELETE needs a plan whatever its estimated hold (`DBOPS_SAFE_PLAN_MIN_ROWS`, default 100,000). */
  minRows: number;
}

/** Settings every part of the service reads. Parsed once per process from the environment by {@link loadSettings}. */
/** Bounds on one uploaded document and on a user's upload slots (docs/documents.md, "Hostile documents"). */
export interface DocumentLimitSettings {
  /** CPU time one file may take on the extraction threads, all its jobs together (`DBOPS_DOCUMENT_CPU_SECONDS`, default 120 s). */
  cpuMs: number;
  /** Decoded bytes of a PDF's streams together, images excepted (`DBOPS_DOCUMENT_MAX_DECODED_BYTES`, default 256 MiB). */
  documentDecodedBytes: number;
  /** Decoded bytes of any one PDF stream, e.g. a page's content (`DBOPS_DOCUMENT_MAX_STREAM_DECODED_BYTES`, default 64 MiB). */
  streamDecodedBytes: number;
  /** Declared bytes of a user's batches not yet ingested (`DBOPS_DOCUMENT_PENDING_QUOTA_BYTES`, default 1 GiB). */
  pendingQuotaBytes: number;
}

export interface ServiceSettings {
  /** `local`: embedded runtime on one machine; `cloud`: Lambda behind API Gateway. */
  mode: 'local' | 'cloud';
  /** Directory for embedded state, key files and the local JWT issuer. `DBOPS_HOME`, default `./.dbops`. */
  home: string;
  /** State database on a server (`DBOPS_DATABASE_URL`); unset means embedded PGlite under `home`. */
  databaseUrl: string | undefined;
  /** Requests per user per window (`DBOPS_RATE_LIMIT`, default 600). */
  rateLimit: number;
  /** Window of the rate limit in seconds (`DBOPS_RATE_LIMIT_WINDOW_SECONDS`, default 60). */
  rateLimitWindowSeconds: number;
  /**
   * Most requests a process counts at once in a user's window and hands out from memory
   * (`DBOPS_RATE_LIMIT_LEASE`; default 100 locally, 1 in cloud mode: every request counted in the store).
   */
  rateLimitLease: number;
  /**
   * How long an authorizer remembers an active API key's owner (`DBOPS_AUTH_CACHE_SECONDS`;
   * default 10 s locally, where a revoke forgets the key at once, 0 in cloud mode, where the
   * authorizer is another function than the revoke).
   */
  authCacheTtlMs: number;
  /** Port of the local runtime (`PORT`, default 4000). */
  port: number;
  /** Local gateway body limit (`DBOPS_MAX_BODY_BYTES`, default 10 MB as API Gateway). */
  maxBodyBytes: number;
  logLevel: LogLevel;
  /** Apply the service's own migrations at start (`DBOPS_MIGRATE_ON_START`, default true). */
  migrateOnStart: boolean;
  /** Cloud: the OIDC issuer whose JWTs are accepted. */
  jwt: { issuer: string | undefined; audience: string | undefined; jwksUrl: string | undefined };
  /** Cloud: AWS Secrets Manager prefix (`DBOPS_SECRETS_PREFIX`). */
  secretsPrefix: string | undefined;
  /** Cloud: KMS key for envelope encryption (`DBOPS_KMS_KEY_ID`). */
  kmsKeyId: string | undefined;
  /** Where the prepared PGlite data directory is cached (`DBOPS_PGLITE_CACHE`, default the OS temp dir). */
  pgliteCacheDir: string | undefined;
  /** Local secrets given as `DBOPS_SECRET_<NAME>` variables, by variable name. */
  secretVariables: Readonly<Record<string, string>>;
  connections: {
    connectTimeoutMs: number;
    /** `DBOPS_BLOCK_PRIVATE_HOSTS`; unset: block in cloud mode only. */
    blockPrivateHosts: boolean | undefined;
    allowedHosts: readonly string[];
    secretCacheTtlMs: number;
    /** `DBOPS_CONNECTION_CACHE_SECONDS`: default 10 s locally, 0 in cloud mode (connections/target-cache.ts). */
    targetCacheTtlMs: number;
    introspectionTimeoutMs: number;
  };
  embeddings: { provider: 'hashing' | 'openai'; model: string | undefined };
  /** The OpenAI-compatible API used by embeddings and the index suggester. */
  openai: { apiKey: string | undefined; baseUrl: string | undefined };
  llm: { provider: 'offline' | 'openai'; apiKey: string | undefined; baseUrl: string | undefined; model: string | undefined; timeoutMs: number | undefined };
  /** Value sampling at introspection and the offline generator's refusal threshold (docs/text-to-sql.md). */
  textToSql: { valueSamples: boolean; valueSampleMax: number; minConfidence: number };
  migrationExecution: ExecutionSettings;
  migrationQueueUrl: string | undefined;
  /**
   * Upload slots in the cloud: the S3 bucket and the ingestion queue (unset locally), and the S3
   * endpoint when it is not AWS's (`npm run start:cloud`'s local S3, addressed path-style).
   */
  documentUploads: { bucket: string | undefined; queueUrl: string | undefined; s3Endpoint: string | undefined };
  /** Bounds on one document's extraction and on a user's pending upload bytes (docs/documents.md). */
  documentLimits: DocumentLimitSettings;
  /** Sessions kept per connection by `/execute` (`DBOPS_EXECUTE_POOL_SIZE`, default 10, 0 = none). */
  executePoolSize: number;
  /** The gateway's window /execute fits its statements into (`DBOPS_GATEWAY_TIMEOUT_SECONDS`, default 30 as API Gateway HTTP APIs). */
  gatewayTimeoutSeconds: number;
  /** Most bytes of rows one /execute answer holds (`DBOPS_EXECUTE_MAX_RESULT_BYTES`, default 5 MiB; Lambda answers at most 6 MB). */
  executeMaxResultBytes: number;
  optimization: OptimizationSettings;
  sandbox: SandboxSettings;
  safePlan: SafePlanSettings;
  /** Raw billing values, checked when a payment route needs them (billing-settings.ts). */
  billing: {
    stripeSecretKey: string | undefined;
    stripeWebhookSecret: string | undefined;
    stripeApiBase: string | undefined;
    successUrl: string | undefined;
    cancelUrl: string | undefined;
  };
  sharedInstance: { url: string | undefined; port: number | undefined };
}

/** Thrown at start when a setting has a value the service cannot use; names the variables, never their values. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/**
 * Parses the environment into {@link ServiceSettings}. The only reader of the environment:
 * call it once at start and hand the result down. A bad value stops the process with every
 * offending variable named (values are not echoed: some are secrets).
 */
export function loadSettings(env: Readonly<Record<string, string | undefined>> = process.env): ServiceSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`);
    throw new SettingsError(`Invalid settings: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const home = path.resolve(e.DBOPS_HOME ?? '.dbops');
  const leaseMs = e.DBOPS_MIGRATION_LEASE_SECONDS * 1000;
  const known = new Set(SETTING_NAMES);
  const secretVariables = Object.fromEntries(
    Object.entries(env).filter((kv): kv is [string, string] => kv[0].startsWith(SECRET_VARIABLE_PREFIX) && !known.has(kv[0]) && !!kv[1]),
  );
  return {
    mode: e.DBOPS_MODE,
    home,
    databaseUrl: e.DBOPS_DATABASE_URL,
    rateLimit: e.DBOPS_RATE_LIMIT,
    rateLimitWindowSeconds: e.DBOPS_RATE_LIMIT_WINDOW_SECONDS,
    rateLimitLease: e.DBOPS_RATE_LIMIT_LEASE ?? (e.DBOPS_MODE === 'cloud' ? 1 : 100),
    authCacheTtlMs: (e.DBOPS_AUTH_CACHE_SECONDS ?? (e.DBOPS_MODE === 'cloud' ? 0 : 10)) * 1000,
    port: e.PORT,
    maxBodyBytes: e.DBOPS_MAX_BODY_BYTES,
    logLevel: e.DBOPS_LOG_LEVEL,
    migrateOnStart: e.DBOPS_MIGRATE_ON_START ?? true,
    jwt: { issuer: e.DBOPS_JWT_ISSUER, audience: e.DBOPS_JWT_AUDIENCE, jwksUrl: e.DBOPS_JWT_JWKS_URL },
    secretsPrefix: e.DBOPS_SECRETS_PREFIX,
    kmsKeyId: e.DBOPS_KMS_KEY_ID,
    pgliteCacheDir: e.DBOPS_PGLITE_CACHE,
    secretVariables,
    connections: {
      connectTimeoutMs: e.DBOPS_CONNECT_TIMEOUT_MS,
      blockPrivateHosts: e.DBOPS_BLOCK_PRIVATE_HOSTS,
      allowedHosts: e.DBOPS_ALLOWED_HOSTS,
      secretCacheTtlMs: e.DBOPS_SECRET_CACHE_SECONDS * 1000,
      targetCacheTtlMs: (e.DBOPS_CONNECTION_CACHE_SECONDS ?? (e.DBOPS_MODE === 'cloud' ? 0 : 10)) * 1000,
      introspectionTimeoutMs: e.DBOPS_INTROSPECTION_TIMEOUT_MS,
    },
    embeddings: { provider: e.DBOPS_EMBEDDINGS, model: e.DBOPS_EMBEDDINGS_MODEL },
    openai: { apiKey: e.DBOPS_OPENAI_API_KEY, baseUrl: e.DBOPS_OPENAI_BASE_URL },
    llm: {
      provider: e.DBOPS_LLM,
      apiKey: e.DBOPS_LLM_API_KEY ?? e.OPENAI_API_KEY ?? e.DBOPS_OPENAI_API_KEY,
      baseUrl: e.DBOPS_LLM_BASE_URL ?? e.OPENAI_BASE_URL ?? e.DBOPS_OPENAI_BASE_URL,
      model: e.DBOPS_LLM_MODEL,
      timeoutMs: e.DBOPS_LLM_TIMEOUT_MS,
    },
    textToSql: {
      valueSamples: e.DBOPS_TEXT_TO_SQL_VALUE_SAMPLES ?? true,
      valueSampleMax: Math.min(e.DBOPS_TEXT_TO_SQL_VALUE_SAMPLE_MAX, 2_000),
      minConfidence: Math.min(e.DBOPS_TEXT_TO_SQL_MIN_CONFIDENCE, 1),
    },
    migrationExecution: {
      lockTimeoutMs: e.DBOPS_MIGRATION_LOCK_TIMEOUT_MS,
      statementTimeoutMs: e.DBOPS_MIGRATION_STATEMENT_TIMEOUT_MS,
      lockRetries: e.DBOPS_MIGRATION_LOCK_RETRIES,
      lockRetryBaseMs: e.DBOPS_MIGRATION_LOCK_RETRY_BASE_MS,
      lockRetryMaxMs: e.DBOPS_MIGRATION_LOCK_RETRY_MAX_MS,
      leaseMs,
      heartbeatMs: (e.DBOPS_MIGRATION_HEARTBEAT_SECONDS ?? leaseMs / 4000) * 1000,
      pendingTimeoutMs: e.DBOPS_MIGRATION_PENDING_TIMEOUT_SECONDS * 1000,
    },
    migrationQueueUrl: e.DBOPS_MIGRATION_QUEUE_URL,
    documentUploads: { bucket: e.DBOPS_UPLOAD_BUCKET, queueUrl: e.DBOPS_DOCUMENT_QUEUE_URL, s3Endpoint: e.DBOPS_S3_ENDPOINT },
    documentLimits: {
      cpuMs: Math.round(e.DBOPS_DOCUMENT_CPU_SECONDS * 1000),
      documentDecodedBytes: e.DBOPS_DOCUMENT_MAX_DECODED_BYTES,
      streamDecodedBytes: e.DBOPS_DOCUMENT_MAX_STREAM_DECODED_BYTES,
      pendingQuotaBytes: e.DBOPS_DOCUMENT_PENDING_QUOTA_BYTES,
    },
    executePoolSize: e.DBOPS_EXECUTE_POOL_SIZE,
    gatewayTimeoutSeconds: e.DBOPS_GATEWAY_TIMEOUT_SECONDS,
    executeMaxResultBytes: e.DBOPS_EXECUTE_MAX_RESULT_BYTES,
    optimization: {
      analyzeTimeoutMs: e.DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS,
      statementTimeoutMs: e.DBOPS_OPTIMIZE_STATEMENT_TIMEOUT_MS,
      documentChunks: e.DBOPS_OPTIMIZE_DOC_CHUNKS,
      hypopg: e.DBOPS_OPTIMIZE_HYPOPG,
      suggester: e.DBOPS_INDEX_SUGGESTER,
      model: e.DBOPS_OPTIMIZE_MODEL,
    },
    sandbox: {
      serverUrl: e.DBOPS_SANDBOX_SERVER_URL,
      serverMode: e.DBOPS_SANDBOX_SERVER_MODE,
      deadlineMs: e.DBOPS_SANDBOX_DEADLINE_MS,
      threads: e.DBOPS_SANDBOX_THREADS,
      cacheMemoryBytes: e.DBOPS_SANDBOX_CACHE_MB * 1024 * 1024,
      cacheDiskBytes: e.DBOPS_SANDBOX_CACHE_DISK_MB * 1024 * 1024,
      cacheDir: e.DBOPS_SANDBOX_CACHE_DIR ?? path.join(home, 'sandbox-cache'),
      engine: e.DBOPS_SANDBOX_ENGINE,
      pgDir: e.DBOPS_SANDBOX_PG_DIR,
      pgSeedDir: e.DBOPS_SANDBOX_PG_SEED_DIR,
      memoryMb: e.DBOPS_SANDBOX_MEMORY_MB,
      concurrencyPerUser: e.DBOPS_ANALYSIS_CONCURRENCY_PER_USER,
      prewarm: e.DBOPS_SANDBOX_PREWARM ?? true,
    },
    // The executor's bounds of the annotation's size and pause_ms (migration-execution/batched-annotation.ts).
    safePlan: {
      batchSize: Math.min(e.DBOPS_SAFE_PLAN_BATCH_SIZE, 1_000_000),
      batchPauseMs: Math.min(e.DBOPS_SAFE_PLAN_BATCH_PAUSE_MS, 60_000),
      minRows: e.DBOPS_SAFE_PLAN_MIN_ROWS,
    },
    billing: {
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
      stripeApiBase: e.STRIPE_API_BASE,
      successUrl: e.DBOPS_BILLING_SUCCESS_URL,
      cancelUrl: e.DBOPS_BILLING_CANCEL_URL,
    },
    sharedInstance: { url: e.DBOPS_SHARED_INSTANCE_URL, port: e.DBOPS_SHARED_INSTANCE_PORT },
  };
}
