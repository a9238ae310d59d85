/**
 * The functions of a deploy as `npm run start:cloud` runs them on one machine: every API
 * function, both authorizers, the two queue consumers and the deploy-time migrator, each bundled
 * by {@link bundleEntries} exactly as SST bundles it (infra/bundle.ts) into a directory of its
 * own, with only the heavy packages SST's `nodejs.install` would ship beside it. Plain Node: no
 * SST globals (imported by the start script, the tests and the cold-start bench).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleEntries, NODE_TARGET } from './bundle';
import {
  AUTHORIZER_MODULES,
  type AuthorizerName,
  DEPLOY_MIGRATE_MODULE,
  DOCUMENTS_INGEST_MODULE,
  EXECUTOR_MODULE,
  type FunctionSizing,
  type HeavyPackage,
  installFor,
  planFunctions,
} from './route-plan';
import { UNCONFIRMED_UPLOAD_DAYS, UNCONFIRMED_UPLOADS_PREFIX, UPLOAD_CORS } from './upload-bucket';

/** What the local Lambda service needs to run one function (packages/local/src/cloud). */
export interface LocalFunction {
  /** `health`, `authorizer-jwt-only`, `executor`, `documents-ingest`, `deploy-migrate`, ... */
  name: string;
  /** The bundle: `<dir>/<name>/index.mjs`, exporting `handler`. */
  bundle: string;
  sizing: FunctionSizing;
  install: HeavyPackage[];
}

export interface LocalFunctionSet {
  functions: LocalFunction[];
  /** The runtime-interface stand-in each function process starts from (packages/local/src/cloud/lambda-bootstrap.ts). */
  bootstrap: string;
  /** Milliseconds spent bundling (0 when the bundles were already built for these sources). */
  buildMs: number;
  /** The upload bucket's rules as the stack declares them (infra/upload-bucket.ts), for the local S3. */
  uploadBucket: LocalBucketRules;
}

/** A bucket's CORS and lifecycle rules in the local S3's terms (packages/local/src/cloud/s3). */
export interface LocalBucketRules {
  cors: { allowOrigins: string[]; allowMethods: string[]; allowHeaders: string[]; exposeHeaders: string[]; maxAgeSeconds: number }[];
  lifecycle: { prefix: string; expireDays: number }[];
}

const UNIT_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };

/** An SST duration (`1 hour`, `30 minutes`) in seconds. */
function durationSeconds(duration: string): number {
  const m = /^(\d+) (second|minute|hour|day)s?$/.exec(duration);
  if (!m) throw new Error(`unknown duration: ${duration}`);
  return Number(m[1]) * UNIT_SECONDS[m[2]!]!;
}

/** The upload bucket's rules (infra/upload-bucket.ts) as the local S3 applies them. */
export const localUploadBucket = (): LocalBucketRules => ({
  cors: [
    {
      allowOrigins: [...UPLOAD_CORS.allowOrigins],
      allowMethods: [...UPLOAD_CORS.allowMethods],
      allowHeaders: [...UPLOAD_CORS.allowHeaders],
      exposeHeaders: [...UPLOAD_CORS.exposeHeaders],
      maxAgeSeconds: durationSeconds(UPLOAD_CORS.maxAge),
    },
  ],
  lifecycle: [{ prefix: UNCONFIRMED_UPLOADS_PREFIX, expireDays: UNCONFIRMED_UPLOAD_DAYS }],
});

// Sizes of the non-API functions, as infra/api.ts, infra/executor.ts, infra/document-uploads.ts and
// infra/deploy-migrations.ts declare them (those files use SST's globals, so they are not imported).
const AUTHORIZER_SIZING: FunctionSizing = { memoryMb: 512, timeoutSeconds: 10 };
const EXECUTOR_SIZING: FunctionSizing = { memoryMb: 1024, timeoutSeconds: 14 * 60 };
const INGEST_SIZING: FunctionSizing = { memoryMb: 3008, timeoutSeconds: 14 * 60 };
const MIGRATE_SIZING: FunctionSizing = { memoryMb: 512, timeoutSeconds: 300 };

interface Planned {
  name: string;
  entry: string;
  sizing: FunctionSizing;
  install: HeavyPackage[];
}

/** Every function of a deploy, with its entry module. */
export function planLocalFunctions(): Planned[] {
  return [
    ...planFunctions().map((f) => ({ name: f.handlerName as string, entry: f.handlerFile, sizing: f.sizing, install: f.install })),
    ...(Object.entries(AUTHORIZER_MODULES) as [AuthorizerName, string][]).map(([n, entry]) => ({
      name: `authorizer-${n}`,
      entry,
      sizing: AUTHORIZER_SIZING,
      install: installFor(n),
    })),
    { name: 'executor', entry: EXECUTOR_MODULE, sizing: EXECUTOR_SIZING, install: installFor('executor') },
    { name: 'documents-ingest', entry: DOCUMENTS_INGEST_MODULE, sizing: INGEST_SIZING, install: installFor('documents-ingest') },
    { name: 'deploy-migrate', entry: DEPLOY_MIGRATE_MODULE, sizing: MIGRATE_SIZING, install: installFor('deploy-migrate') },
  ];
}

export const BOOTSTRAP_MODULE = 'packages/local/src/cloud/lambda-bootstrap.ts';

/** The sources a bundle can depend on: a key that changes whenever any of them does. */
function sourceKey(root: string): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) visit(p);
      else hash.update(`${p}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  for (const pkg of ['core', 'functions', 'adapters', 'local']) visit(path.join(root, 'packages', pkg, 'src'));
  for (const f of ['infra/bundle.ts', 'infra/route-plan.ts', 'infra/local-cloud.ts', 'package-lock.json']) {
    const st = statSync(path.join(root, f));
    hash.update(`${f}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Bundles every function into `<cacheDir>/<key>/` (key: the sources' sizes and times), reusing
 * a complete earlier build of the same sources. Each function directory gets a `node_modules`
 * holding links to the heavy packages its deploy ships, and nothing else: a bundle importing a
 * package its function does not ship fails here as it would on Lambda.
 */
export async function buildLocalFunctions(options: { root: string; cacheDir: string }): Promise<LocalFunctionSet> {
  const planned = planLocalFunctions();
  const dir = path.join(options.cacheDir, sourceKey(options.root));
  const list = (): LocalFunction[] => planned.map((p) => ({ name: p.name, bundle: path.join(dir, p.name, 'index.mjs'), sizing: p.sizing, install: p.install }));
  const bootstrap = path.join(dir, 'bootstrap.mjs');
  if (existsSync(path.join(dir, 'complete'))) return { functions: list(), bootstrap, buildMs: 0, uploadBucket: localUploadBucket() };

  const started = performance.now();
  // Built aside and renamed into place, so that two runs starting at once never see half a build.
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await bundleEntries(
    planned.map((p) => ({ entry: p.entry, out: `${p.name}/index` })),
    { root: options.root, outdir: tmp },
  );
  for (const p of planned) {
    const modules = path.join(tmp, p.name, 'node_modules');
    for (const pkg of p.install) {
      const link = path.join(modules, pkg);
      await mkdir(path.dirname(link), { recursive: true });
      await symlink(path.join(options.root, 'node_modules', pkg), link, 'dir');
    }
  }
  // The bootstrap is the runtime's, not the function's: it is not part of any bundle.
  await build({
    absWorkingDir: options.root,
    entryPoints: [BOOTSTRAP_MODULE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: NODE_TARGET,
    outfile: path.join(tmp, 'bootstrap.mjs'),
    logLevel: 'silent',
  });
  await writeFile(path.join(tmp, 'complete'), new Date().toISOString());
  try {
    await rename(tmp, dir);
  } catch {
    // Another run finished the same build first.
    await rm(tmp, { recursive: true, force: true });
  }
  return { functions: list(), bootstrap, buildMs: Math.round(performance.now() - started), uploadBucket: localUploadBucket() };
}
