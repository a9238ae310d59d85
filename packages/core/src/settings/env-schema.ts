import { z } from 'zod';
import { flag, integer, lowerCaseList, number, oneOf, optionalInteger, optionalNumber, text } from './setting-values';

/**
 * Every environment variable the service reads, with its type and default: the one place the
 * environment is parsed (docs/configuration.md and the feature pages document each one; a test
 * fails when a variable here, or one named anywhere in the source, is not documented).
 * `DBOPS_SECRET_<NAME>` variables are the local secret store's and are collected separately.
 */
export const envSchema = z.object({
  // Foundation (docs/configuration.md)
  PORT: integer(4000, 0),
  DBOPS_MODE: oneOf(['local', 'cloud'], 'local'),
  DBOPS_HOME: text(),
  DBOPS_DATABASE_URL: text(),
  DBOPS_RATE_LIMIT: integer(600, 1),
  DBOPS_RATE_LIMIT_WINDOW_SECONDS: integer(60, 1),
  DBOPS_RATE_LIMIT_LEASE: optionalInteger(1),
  DBOPS_AUTH_CACHE_SECONDS: optionalNumber(0),
  DBOPS_MAX_BODY_BYTES: integer(10 * 1024 * 1024, 1),
  DBOPS_LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'], 'info'),
  DBOPS_JWT_ISSUER: text(),
  DBOPS_JWT_AUDIENCE: text(),
  DBOPS_JWT_JWKS_URL: text(),
  DBOPS_SECRETS_PREFIX: text(),
  DBOPS_KMS_KEY_ID: text(),
  DBOPS_MIGRATE_ON_START: flag(),
  DBOPS_PGLITE_CACHE: text(),
  // Connections and introspection (docs/connections.md)
  DBOPS_CONNECT_TIMEOUT_MS: integer(5000, 1),
  DBOPS_BLOCK_PRIVATE_HOSTS: flag(),
  DBOPS_ALLOWED_HOSTS: lowerCaseList(),
  DBOPS_SECRET_CACHE_SECONDS: number(300, 0),
  DBOPS_CONNECTION_CACHE_SECONDS: optionalNumber(0),
  DBOPS_INTROSPECTION_TIMEOUT_MS: integer(60_000, 1),
  DBOPS_EMBEDDINGS: oneOf(['hashing', 'openai'], 'hashing'),
  DBOPS_EMBEDDINGS_MODEL: text(),
  // Document upload slots (docs/documents.md): set in the cloud; locally, files under DBOPS_HOME and an in-process queue
  DBOPS_UPLOAD_BUCKET: text(),
  // An S3-compatible endpoint instead of AWS's (path-style addressing): `npm run start:cloud`'s local S3
  DBOPS_S3_ENDPOINT: text(),
  DBOPS_DOCUMENT_QUEUE_URL: text(),
  // Bounds on one document and on a user's pending uploads (docs/documents.md, "Hostile documents")
  DBOPS_DOCUMENT_CPU_SECONDS: number(120, 0.1),
  DBOPS_DOCUMENT_MAX_DECODED_BYTES: integer(256 * 1024 * 1024, 1024),
  DBOPS_DOCUMENT_MAX_STREAM_DECODED_BYTES: integer(64 * 1024 * 1024, 1024),
  DBOPS_DOCUMENT_PENDING_QUOTA_BYTES: integer(1024 * 1024 * 1024, 1),
  DBOPS_OPENAI_API_KEY: text(),
  DBOPS_OPENAI_BASE_URL: text(),
  // Migration execution (docs/migration-execution.md)
  DBOPS_MIGRATION_QUEUE_URL: text(),
  DBOPS_MIGRATION_LOCK_TIMEOUT_MS: number(5000, 1),
  DBOPS_MIGRATION_STATEMENT_TIMEOUT_MS: number(300_000, 1),
  DBOPS_MIGRATION_LOCK_RETRIES: number(3, 0),
  DBOPS_MIGRATION_LOCK_RETRY_BASE_MS: number(500, 0),
  DBOPS_MIGRATION_LOCK_RETRY_MAX_MS: number(8000, 0),
  DBOPS_MIGRATION_LEASE_SECONDS: number(60, 1),
  DBOPS_MIGRATION_HEARTBEAT_SECONDS: optionalNumber(0.1),
  DBOPS_MIGRATION_PENDING_TIMEOUT_SECONDS: number(900, 1),
  // SQL execution (docs/sql-execution.md)
  DBOPS_EXECUTE_POOL_SIZE: integer(10, 0),
  DBOPS_GATEWAY_TIMEOUT_SECONDS: number(30, 1),
  DBOPS_EXECUTE_MAX_RESULT_BYTES: integer(5 * 1024 * 1024, 1024),
  // Query optimization (docs/query-optimization.md)
  DBOPS_OPTIMIZE_ANALYZE_TIMEOUT_MS: integer(30_000, 1),
  DBOPS_OPTIMIZE_STATEMENT_TIMEOUT_MS: integer(15_000, 1),
  DBOPS_OPTIMIZE_DOC_CHUNKS: integer(5, 1),
  DBOPS_OPTIMIZE_HYPOPG: oneOf(['auto', 'off'], 'auto'),
  DBOPS_INDEX_SUGGESTER: oneOf(['offline', 'openai'], 'offline'),
  DBOPS_OPTIMIZE_MODEL: text(),
  // Migration analysis sandbox (docs/migration-analysis.md)
  DBOPS_SANDBOX_SERVER_URL: text(),
  DBOPS_SANDBOX_SERVER_MODE: oneOf(['extensions', 'always'], 'extensions'),
  DBOPS_SANDBOX_DEADLINE_MS: optionalInteger(1),
  DBOPS_SANDBOX_THREADS: optionalInteger(1),
  DBOPS_SANDBOX_CACHE_MB: number(256, 0),
  DBOPS_SANDBOX_CACHE_DISK_MB: number(1024, 0),
  DBOPS_SANDBOX_CACHE_DIR: text(),
  DBOPS_SANDBOX_ENGINE: oneOf(['auto', 'pglite', 'embedded'], 'auto'),
  DBOPS_SANDBOX_PG_DIR: text(),
  DBOPS_SANDBOX_PG_SEED_DIR: text(),
  DBOPS_SANDBOX_MEMORY_MB: integer(1024, 1),
  DBOPS_SANDBOX_PREWARM: flag(),
  DBOPS_ANALYSIS_CONCURRENCY_PER_USER: integer(4, 1),
  // Safe plans: the batch size and pause a batched UPDATE/DELETE is offered with (docs/migration-analysis.md)
  DBOPS_SAFE_PLAN_BATCH_SIZE: integer(5000, 1),
  DBOPS_SAFE_PLAN_BATCH_PAUSE_MS: integer(0, 0),
  DBOPS_SAFE_PLAN_MIN_ROWS: integer(100_000, 0),
  // Text-to-SQL (docs/text-to-sql.md)
  DBOPS_LLM: oneOf(['offline', 'openai'], 'offline'),
  DBOPS_LLM_API_KEY: text(),
  DBOPS_LLM_BASE_URL: text(),
  DBOPS_LLM_MODEL: text(),
  DBOPS_LLM_TIMEOUT_MS: optionalInteger(1),
  OPENAI_API_KEY: text(),
  OPENAI_BASE_URL: text(),
  DBOPS_TEXT_TO_SQL_VALUE_SAMPLES: flag(),
  DBOPS_TEXT_TO_SQL_VALUE_SAMPLE_MAX: integer(500, 1),
  DBOPS_TEXT_TO_SQL_MIN_CONFIDENCE: number(0.5, 0),
  // Billing (docs/billing.md): checked when a payment route needs them, so that a billing
  // misconfiguration answers 503 BILLING_NOT_CONFIGURED there and leaves every other route up.
  STRIPE_SECRET_KEY: text(),
  STRIPE_WEBHOOK_SECRET: text(),
  STRIPE_API_BASE: text(),
  DBOPS_BILLING_SUCCESS_URL: text(),
  DBOPS_BILLING_CANCEL_URL: text(),
  // Managed databases (docs/provisioning.md)
  DBOPS_SHARED_INSTANCE_URL: text(),
  DBOPS_SHARED_INSTANCE_PORT: optionalInteger(0),
});

/** The parsed environment, variable by variable. */
export type ParsedEnv = z.output<typeof envSchema>;

/** Names of every variable {@link envSchema} reads. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/** Prefix of the local secret store's variables (`DBOPS_SECRET_STRIPE_SECRET_KEY`, ...). */
export const SECRET_VARIABLE_PREFIX = 'DBOPS_SECRET_';
