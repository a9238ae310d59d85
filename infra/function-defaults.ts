import type { StageSettings } from '../stacks/types';
import type { HeavyPackage, UploadAccess } from './route-plan';

/** What every function of the service shares. */
export interface ServiceRuntime {
  settings: StageSettings;
  vpc: sst.aws.Vpc;
  key: aws.kms.Key;
  /** Connection URL of the state database (through RDS Proxy). */
  databaseUrl: $util.Output<string>;
  secretsPrefix: string;
  secretArns: $util.Output<string>[];
  queueUrl: $util.Output<string>;
  queueArn: $util.Output<string>;
  /**
   * The analysis function's container image (infra/sandbox-image.ts), `<repository>:<tag>`; absent
   * when the deploy names no image tag, and then that function stays a zip with the PGlite sandbox only.
   */
  sandboxImageUri?: $util.Input<string>;
  jwt: { issuer: $util.Input<string>; audience: $util.Input<string>; jwksUrl: $util.Input<string> };
  /** Upload slots: the bucket files are sent to, and the queue confirmed batches go through (infra/document-uploads.ts). */
  uploads: {
    bucketName: $util.Input<string>;
    bucketArn: $util.Input<string>;
    /** `<bucket arn>/uploads/*`: the only objects functions may touch. */
    objectsArn: $util.Input<string>;
    queueUrl: $util.Input<string>;
    queueArn: $util.Input<string>;
  };
}

/**
 * What a function may do with the upload bucket: `sign` presigned POSTs (S3 checks the signer's
 * s3:PutObject), `check` that confirmed files are there (HeadObject; ListBucket makes a missing
 * object a 404, not a 403), `ingest` (read, then delete after ingestion).
 */
export type { UploadAccess };

/** Which AWS permissions a function gets, beyond what SST adds for its own wiring. */
export interface Grants {
  /** kms:Encrypt/Decrypt/GenerateDataKey on the service key (connection strings). */
  kms?: boolean;
  /** secretsmanager:GetSecretValue on the service's secrets. */
  secrets?: boolean;
  /** sqs:SendMessage on the migration queue. */
  enqueue?: boolean;
  /** Access to the upload bucket's `uploads/` objects. */
  uploads?: UploadAccess;
  /** sqs:SendMessage on the document ingestion queue. */
  enqueueDocuments?: boolean;
}

const UPLOAD_ACTIONS: Record<UploadAccess, string[]> = {
  sign: ['s3:PutObject'],
  check: ['s3:GetObject'],
  ingest: ['s3:GetObject', 's3:DeleteObject'],
};

/**
 * The environment every function reads (packages/core/src/config.ts and
 * packages/functions/src/runtime/container.ts). Migrations run at deploy time, not on cold start.
 */
export function serviceEnvironment(rt: ServiceRuntime): Record<string, $util.Input<string>> {
  return {
    DBOPS_MODE: 'cloud',
    DBOPS_HOME: '/tmp/dbops',
    DBOPS_PGLITE_CACHE: '/tmp',
    DBOPS_DATABASE_URL: rt.databaseUrl,
    DBOPS_MIGRATE_ON_START: 'false',
    DBOPS_JWT_ISSUER: rt.jwt.issuer,
    DBOPS_JWT_AUDIENCE: rt.jwt.audience,
    DBOPS_JWT_JWKS_URL: rt.jwt.jwksUrl,
    DBOPS_KMS_KEY_ID: rt.key.arn,
    DBOPS_SECRETS_PREFIX: rt.secretsPrefix,
    DBOPS_MIGRATION_QUEUE_URL: rt.queueUrl,
    DBOPS_UPLOAD_BUCKET: rt.uploads.bucketName,
    DBOPS_DOCUMENT_QUEUE_URL: rt.uploads.queueUrl,
    DBOPS_LOG_LEVEL: 'info',
    // Lambda's /tmp is 512 MB by default and also holds the PGlite template: keep the sandbox's
    // clone cache small there; the memory layer stays well inside the 2 GB analysis function.
    DBOPS_SANDBOX_CACHE_DISK_MB: '128',
    DBOPS_SANDBOX_CACHE_MB: '256',
  };
}

/** Least-privilege statements for a function's grants. */
export function permissionsFor(rt: ServiceRuntime, grants: Grants): sst.aws.FunctionArgs['permissions'] {
  const statements: { actions: string[]; resources: $util.Input<string>[] }[] = [];
  if (grants.kms) statements.push({ actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey'], resources: [rt.key.arn] });
  if (grants.secrets) statements.push({ actions: ['secretsmanager:GetSecretValue'], resources: rt.secretArns });
  if (grants.enqueue) statements.push({ actions: ['sqs:SendMessage'], resources: [rt.queueArn] });
  if (grants.uploads) {
    statements.push({ actions: UPLOAD_ACTIONS[grants.uploads], resources: [rt.uploads.objectsArn] });
    if (grants.uploads !== 'sign') statements.push({ actions: ['s3:ListBucket'], resources: [rt.uploads.bucketArn] });
  }
  if (grants.enqueueDocuments) statements.push({ actions: ['sqs:SendMessage'], resources: [rt.uploads.queueArn] });
  return statements;
}

/** Function arguments shared by API handlers, authorizers, the executor and the migrator. */
export function functionArgs(
  rt: ServiceRuntime,
  options: { handler: string; memoryMb: number; timeoutSeconds: number; install: readonly HeavyPackage[]; grants: Grants; description: string },
): sst.aws.FunctionArgs {
  return {
    handler: options.handler,
    description: options.description,
    runtime: 'nodejs22.x',
    architecture: rt.settings.lambdaArchitecture,
    memory: `${options.memoryMb} MB`,
    timeout: `${options.timeoutSeconds} seconds`,
    vpc: rt.vpc,
    environment: serviceEnvironment(rt),
    permissions: permissionsFor(rt, options.grants),
    logging: { retention: rt.settings.logRetention, format: 'json' },
    nodejs: {
      format: 'esm',
      minify: true,
      sourcemap: true,
      // Read their WASM/data files from disk at run time, so they ship as packages.
      install: [...options.install],
    },
    // The environment holds the database URL: encrypt it with the service key, not AWS's.
    transform: { function: { kmsKeyArn: rt.key.arn } },
  };
}
