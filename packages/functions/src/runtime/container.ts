import { createRemoteJwtVerifier, type JwtVerifier } from '@dbops/core/auth';
import { loadSettings, type ServiceSettings } from '@dbops/core/config';
import { migrate } from '@dbops/core/store';
import { serviceMigrations } from '@dbops/core/store/migrations';
import { PgStore } from '@dbops/core/store';
import { type Store } from '@dbops/core/store';
import { type Clock, systemClock } from '@dbops/core/util';
import path from 'node:path';
import { sandboxServerSettings, sweepSandboxRunDirs } from '@dbops/core/analysis';
import type { SchemaSnapshot } from '@dbops/core/introspection';
import { setLogLevel } from './logger';

/**
 * What handlers and authorizers share within one process (one Lambda instance, or the whole
 * local runtime). Feature modules derive their own ports from `settings` and memoize them
 * per container, so this stays small.
 */
export interface Container {
  settings: ServiceSettings;
  store: Store;
  clock: Clock;
  verifyJwt: JwtVerifier;
  /** Background work started by a request that must finish before the process may stop. */
  background: Set<Promise<unknown>>;
  /**
   * Called with each new snapshot of `POST /connections/{id}/introspect`: the local runtime
   * builds the sandbox clone the next analysis needs (`prewarmAnalysis`); absent in Lambda.
   */
  afterIntrospection?: (input: { userId: string; connectionId: string; snapshot: SchemaSnapshot }) => void;
}

let current: Promise<Container> | undefined;

/** Installs the container (local runtime, tests). */
export function setContainer(container: Container | undefined): void {
  current = container ? Promise.resolve(container) : undefined;
}

/** The process's container; in Lambda it is built from the environment on first use. */
export function getContainer(): Promise<Container> {
  current ??= createCloudContainer(loadSettings());
  return current;
}

/** Applies the settings that are process-wide rather than per container (log level, PGlite template cache). */
export async function applyProcessSettings(settings: ServiceSettings): Promise<void> {
  setLogLevel(settings.logLevel);
  // Checked here so that a sandbox server sharing the state database stops the process at start.
  sandboxServerSettings(settings);
  // Run directories of embedded sandbox servers whose process is gone (a kill, a crash).
  await sweepSandboxRunDirs(settings.sandbox.pgDir);
  if (!settings.databaseUrl) (await import('@dbops/core/store/pglite-template')).setPgliteCacheDir(settings.pgliteCacheDir);
}

async function createCloudContainer(settings: ServiceSettings): Promise<Container> {
  await applyProcessSettings(settings);
  // PGlite (24 MB of WASM) is loaded only when it is the store, so cloud functions never pay for it.
  const store = settings.databaseUrl
    ? new PgStore({ connectionString: settings.databaseUrl })
    : await (await import('@dbops/core/store/pglite-store')).PgliteStore.open(path.join(settings.home, 'state'));
  if (settings.migrateOnStart) await migrate(store, serviceMigrations);
  const { issuer, audience, jwksUrl } = settings.jwt;
  if (!issuer || !audience || !jwksUrl) {
    throw new Error('DBOPS_JWT_ISSUER, DBOPS_JWT_AUDIENCE and DBOPS_JWT_JWKS_URL must be set');
  }
  return {
    settings,
    store,
    clock: systemClock,
    verifyJwt: createRemoteJwtVerifier({ issuer, audience, jwksUrl }),
    background: new Set(),
  };
}
