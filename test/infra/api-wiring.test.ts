import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthScheme, routes } from '../../packages/functions/src/routes';
import {
  AUTHORIZER_MODULES,
  COMPOSED_HANDLERS,
  DEPLOY_MIGRATE_MODULE,
  DOCUMENTS_INGEST_MODULE,
  EXECUTOR_MODULE,
  installFor,
  planFunctions,
  planRoutes,
} from '../../infra/route-plan';
import { dev } from '../../stacks/dev';

/**
 * infra/api.ts runs against a recording stand-in for SST's `sst.aws` globals, so the test sees
 * exactly which routes, functions and authorizers the real stack would declare.
 */
interface Recorded {
  functions: Map<string, { handler: string; permissions: { actions: string[]; resources: unknown[] }[]; install: string[]; env: Record<string, unknown> }>;
  authorizers: Map<string, { handler: string; response: string; ttl: string; identitySources: string[]; payload: string; permissions: unknown[] }>;
  routes: Map<string, { target: string; authorizer: string | null; name: string | undefined }>;
}

const recorded: Recorded = { functions: new Map(), authorizers: new Map(), routes: new Map() };

class FakeFunction {
  readonly arn: string;
  readonly name: string;
  constructor(name: string, args: { handler: string; permissions: never[]; nodejs: { install: string[] }; environment: Record<string, unknown> }) {
    this.arn = `arn:aws:lambda:eu-west-1:123456789012:function:${name}`;
    this.name = name;
    recorded.functions.set(name, { handler: args.handler, permissions: args.permissions, install: args.nodejs.install, env: args.environment });
  }
}

let apiArgs: { cors?: { allowHeaders?: string[]; allowOrigins?: string[] } } = {};

class FakeApi {
  url = 'https://api.example.test';
  constructor(_name: string, args: typeof apiArgs) {
    apiArgs = args;
  }
  nodes = { api: { id: 'api' } };
  addAuthorizer(args: {
    name: string;
    lambda: { function: { handler: string; permissions: unknown[] }; response: string; ttl: string; identitySources: string[]; payload: string };
  }) {
    const { function: fn, ...rest } = args.lambda;
    recorded.authorizers.set(args.name, { handler: fn.handler, permissions: fn.permissions, ...rest, identitySources: [...rest.identitySources] });
    return { id: `authz-${args.name}` };
  }
  route(routeKey: string, target: string, args: { name?: string; auth?: { lambda?: string } }) {
    if (recorded.routes.has(routeKey)) throw new Error(`route declared twice: ${routeKey}`);
    recorded.routes.set(routeKey, { target, authorizer: args.auth?.lambda ?? null, name: args.name });
  }
}

const fakeRuntime = {
  settings: dev,
  vpc: { id: 'vpc' },
  key: { arn: 'arn:aws:kms:eu-west-1:123456789012:key/service' },
  databaseUrl: 'postgresql://u:p@proxy:5432/dbops?sslmode=require',
  secretsPrefix: 'dbops/dev/',
  secretArns: ['arn:aws:secretsmanager:eu-west-1:123456789012:secret:dbops/dev/approval-signing-key'],
  queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/MigrationQueue',
  queueArn: 'arn:aws:sqs:eu-west-1:123456789012:MigrationQueue',
  jwt: { issuer: 'https://issuer.example', audience: 'dbops', jwksUrl: 'https://issuer.example/.well-known/jwks.json' },
  uploads: {
    bucketName: 'dbops-dev-documentuploads',
    bucketArn: 'arn:aws:s3:::dbops-dev-documentuploads',
    objectsArn: 'arn:aws:s3:::dbops-dev-documentuploads/uploads/*',
    queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/DocumentQueue',
    queueArn: 'arn:aws:sqs:eu-west-1:123456789012:DocumentQueue',
  },
};

const ROOT = path.resolve(__dirname, '../..');
const expectedAuthorizer: Record<AuthScheme, string | null> = { none: null, api_key_or_jwt: 'authz-ApiKeyOrJwt', jwt: 'authz-JwtOnly' };

beforeAll(async () => {
  (globalThis as Record<string, unknown>).sst = { aws: { ApiGatewayV2: FakeApi, Function: FakeFunction } };
  // By path, so the main type-check (which has no SST globals) does not follow it; infra/api.ts
  // is type-checked by tsconfig.infra.json.
  const { createApi } = (await import(path.join(ROOT, 'infra/api.ts'))) as { createApi(rt: unknown, options: object): unknown };
  createApi(fakeRuntime, {});
});

afterAll(() => {
  delete (globalThis as Record<string, unknown>).sst;
});

describe('infra/api.ts wiring of the route table', () => {
  it('lets the web console on its CloudFront origin send both credential headers', () => {
    expect(apiArgs.cors?.allowHeaders).toEqual(expect.arrayContaining(['authorization', 'x-api-key', 'content-type']));
    expect(apiArgs.cors?.allowOrigins).toEqual(['*']);
  });

  it('declares every route of the table exactly once, and nothing else', () => {
    expect([...recorded.routes.keys()].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: its handler module and the right authorizer', (key, r) => {
    const wired = recorded.routes.get(key)!;
    const fnName = wired.target.split(':function:')[1]!;
    const dir = (COMPOSED_HANDLERS as readonly string[]).includes(r.handler) ? 'entries' : 'handlers';
    expect(recorded.functions.get(fnName)?.handler).toBe(`packages/functions/src/${dir}/${r.handler}.handler`);
    expect(wired.authorizer).toBe(expectedAuthorizer[r.auth]);
  });

  it('leaves health and the Stripe webhook without an authorizer and API key management JWT-only', () => {
    expect(recorded.routes.get('GET /api/v1/health')?.authorizer).toBeNull();
    expect(recorded.routes.get('POST /api/v1/billing/webhook')?.authorizer).toBeNull();
    for (const key of ['POST /api/v1/api-keys', 'GET /api/v1/api-keys', 'DELETE /api/v1/api-keys/{key_id}']) {
      expect(recorded.routes.get(key)?.authorizer).toBe('authz-JwtOnly');
    }
    expect(recorded.routes.get('POST /api/v1/mcp')?.authorizer).toBe('authz-ApiKeyOrJwt');
  });

  it('gives every route a distinct, stable resource name', () => {
    const names = [...recorded.routes.values()].map((r) => r.name);
    expect(new Set(names).size).toBe(routes.length);
    expect(recorded.routes.get('GET /api/v1/connections/{connection_id}')?.name).toBe('RouteGetApiV1ConnectionsConnectionId');
  });

  it('creates one function per handler module', () => {
    expect(recorded.functions.size).toBe(new Set(routes.map((r) => r.handler)).size);
    expect(planFunctions()).toHaveLength(recorded.functions.size);
  });

  it('configures both authorizers as simple responses without caching or identity sources', () => {
    expect([...recorded.authorizers.keys()].sort()).toEqual(['ApiKeyOrJwt', 'JwtOnly']);
    for (const [name, a] of recorded.authorizers) {
      expect(a.response).toBe('simple');
      expect(a.ttl).toBe('0 seconds');
      expect(a.payload).toBe('2.0');
      expect(a.identitySources).toEqual([]);
      expect(a.handler).toBe(
        name === 'JwtOnly' ? 'packages/functions/src/authorizers/jwt-only.handler' : 'packages/functions/src/authorizers/api-key-or-jwt.handler',
      );
      // Authorizers read only the state database: no KMS, secrets or queue.
      expect(a.permissions).toEqual([]);
    }
  });

  it('grants least privilege: KMS on the one key, secrets by ARN, SendMessage only to enqueuers', () => {
    for (const [name, fn] of recorded.functions) {
      const byAction = new Map(fn.permissions.flatMap((p) => p.actions.map((a) => [a, p.resources] as const)));
      expect(byAction.get('kms:Decrypt')).toEqual([fakeRuntime.key.arn]);
      expect(byAction.get('kms:GenerateDataKey')).toEqual([fakeRuntime.key.arn]);
      expect(byAction.get('secretsmanager:GetSecretValue')).toEqual(fakeRuntime.secretArns);
      const enqueues = name === 'ApiMigrationsExecute' || name === 'ApiMcp';
      const queues = [...(enqueues ? [fakeRuntime.queueArn] : []), ...(name === 'ApiDocumentsBatchConfirm' ? [fakeRuntime.uploads.queueArn] : [])];
      const sends = fn.permissions.filter((p) => p.actions.includes('sqs:SendMessage')).flatMap((p) => p.resources);
      expect(sends).toEqual(queues);
      // Upload slots: the slot signer may only put, the confirmer only look, both under uploads/ only.
      const s3 = fn.permissions.filter((p) => p.actions.some((a) => a.startsWith('s3:')));
      if (name === 'ApiDocumentsBatchCreate') expect(s3).toEqual([{ actions: ['s3:PutObject'], resources: [fakeRuntime.uploads.objectsArn] }]);
      else if (name === 'ApiDocumentsBatchConfirm') {
        expect(s3).toEqual([
          { actions: ['s3:GetObject'], resources: [fakeRuntime.uploads.objectsArn] },
          { actions: ['s3:ListBucket'], resources: [fakeRuntime.uploads.bucketArn] },
        ]);
      } else expect(s3).toEqual([]);
      for (const actions of fn.permissions.map((p) => p.actions)) for (const a of actions) expect(a).not.toContain('*');
    }
  });

  it('hands every function the environment the code reads', () => {
    for (const fn of recorded.functions.values()) {
      expect(fn.env).toMatchObject({
        DBOPS_MODE: 'cloud',
        DBOPS_DATABASE_URL: fakeRuntime.databaseUrl,
        DBOPS_JWT_ISSUER: fakeRuntime.jwt.issuer,
        DBOPS_JWT_AUDIENCE: fakeRuntime.jwt.audience,
        DBOPS_JWT_JWKS_URL: fakeRuntime.jwt.jwksUrl,
        DBOPS_KMS_KEY_ID: fakeRuntime.key.arn,
        DBOPS_SECRETS_PREFIX: 'dbops/dev/',
        DBOPS_MIGRATION_QUEUE_URL: fakeRuntime.queueUrl,
        DBOPS_MIGRATE_ON_START: 'false',
        DBOPS_UPLOAD_BUCKET: fakeRuntime.uploads.bucketName,
        DBOPS_DOCUMENT_QUEUE_URL: fakeRuntime.uploads.queueUrl,
      });
    }
  });

  it('ships pdf.js only with the functions that read PDFs, and nothing heavy with the migrator', () => {
    expect(recorded.functions.get('ApiDocumentsUpload')?.install).toContain('pdfjs-dist');
    expect(recorded.functions.get('ApiMigrationsAnalyze')?.install).toContain('libpg-query');
    expect(recorded.functions.get('ApiBillingBalance')?.install).not.toContain('pdfjs-dist');
    expect(installFor('deploy-migrate')).toEqual([]);
  });
});

describe('the modules the stack points at', () => {
  const modules = [
    ...planRoutes().map((r) => r.handlerFile),
    ...Object.values(AUTHORIZER_MODULES),
    EXECUTOR_MODULE,
    DOCUMENTS_INGEST_MODULE,
    DEPLOY_MIGRATE_MODULE,
  ];
  it.each(modules)('%s exists and exports handler', async (file) => {
    expect(existsSync(path.join(ROOT, file))).toBe(true);
    const mod = (await import(path.join(ROOT, file))) as { handler?: unknown };
    expect(typeof mod.handler).toBe('function');
  });
});
