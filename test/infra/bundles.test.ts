import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleEntry, bundleInMemory } from '../../infra/bundle';
import {
  AUTHORIZER_MODULES,
  type AuthorizerName,
  DEPLOY_MIGRATE_MODULE,
  DOCUMENTS_INGEST_MODULE,
  EXECUTOR_MODULE,
  type HeavyPackage,
  installFor,
  planFunctions,
} from '../../infra/route-plan';

const ROOT = path.resolve(__dirname, '../..');
const FIVE_MB = 5 * 1024 * 1024;

const entries: [string, string, HeavyPackage[]][] = [
  ...planFunctions().map((f) => [f.handlerName, f.handlerFile, f.install] as [string, string, HeavyPackage[]]),
  ...(Object.entries(AUTHORIZER_MODULES) as [AuthorizerName, string][]).map(
    ([n, f]) => [`authorizer ${n}`, f, installFor(n)] as [string, string, HeavyPackage[]],
  ),
  ['executor', EXECUTOR_MODULE, installFor('executor')],
  ['documents-ingest', DOCUMENTS_INGEST_MODULE, installFor('documents-ingest')],
  ['deploy-migrate', DEPLOY_MIGRATE_MODULE, installFor('deploy-migrate')],
];

/**
 * Bundles every function as SST would (infra/bundle.ts) and checks what a deploy would break
 * on: a bundle that imports a WASM/data package its function does not ship fails at cold start.
 */
describe('Lambda bundles', () => {
  // One esbuild run for all entries (each output is what bundling its entry alone gives; the
  // deploy-time migrator below is bundled alone as a check of that).
  const results = new Map<string, BundleResult>();
  beforeAll(async () => {
    const files = [...new Set(entries.map(([, file]) => file))];
    for (const [i, r] of (await bundleInMemory(files, { root: ROOT })).entries()) results.set(files[i]!, r);
  }, 120_000);

  it.each(entries)('%s bundles under 5 MB and ships every heavy package it imports', async (_name, file, install) => {
    const result = results.get(file)!;
    expect(result.bytes).toBeGreaterThan(0);
    expect(result.bytes).toBeLessThan(FIVE_MB);
    expect(result.heavy.filter((h) => !install.includes(h))).toEqual([]);
    // The web console (#20) is a static site: nothing of it belongs in a function.
    expect(result.topInputs.map((i) => i.name).filter((n) => /^(packages\/web|preact|vite|playwright-core)$/.test(n))).toEqual([]);
  });

  it('keeps the deploy-time migrator free of PGlite and the parser, bundled alone as in one run with the others', async () => {
    const result = await bundleEntry(DEPLOY_MIGRATE_MODULE, { root: ROOT });
    expect(result.heavy).toEqual([]);
    expect(result.bytes).toBe(results.get(DEPLOY_MIGRATE_MODULE)!.bytes);
  });
});
