import { analysisSettings } from '@dbops/core/analysis/analysis-settings';
import { createRemoteJwtVerifier, type JwtVerifier } from '@dbops/core/auth/jwt-verifier';
import { loadSettings, type ServiceSettings } from '@dbops/core/config';
import { migrate } from '@dbops/core/store/migrate';
import { serviceMigrations } from '@dbops/core/store/migrations/index';
import { PgStore } from '@dbops/core/store/pg-store';
import { type Store } from '@dbops/core/store/store';
import { type Clock, systemClock } from '@dbops/core/util/clock';
import path from 'node:path';

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

async function createCloudContainer(settings: ServiceSettings): Promise<Container> {
  const env = settings.env;
  // Feature settings that can be wrong stop the function at its first request.
  analysisSettings(env);
  // PGlite (24 MB of WASM) is loaded only when it is the store, so cloud functions never pay for it.
  const store = settings.databaseUrl
    ? new PgStore({ connectionString: settings.databaseUrl })
    : await (await import('@dbops/core/store/pglite-store')).PgliteStore.open(path.join(settings.home, 'state'));
  if (env.DBOPS_MIGRATE_ON_START !== 'false') await migrate(store, serviceMigrations);
  const issuer = env.DBOPS_JWT_ISSUER;
  const audience = env.DBOPS_JWT_AUDIENCE;
  const jwksUrl = env.DBOPS_JWT_JWKS_URL;
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
