import { createJwtVerifier } from '@dbops/core/auth';
import { loadSettings } from '@dbops/core/config';
import { migrate } from '@dbops/core/store';
import { serviceMigrations } from '@dbops/core/store/migrations';
import { PgStore } from '@dbops/core/store';
import { PgliteStore } from '@dbops/core/store/pglite-store';
import { type Store } from '@dbops/core/store';
import { type Clock, systemClock } from '@dbops/core/util';
import { handler as apiKeyOrJwt } from '@dbops/functions/authorizers/api-key-or-jwt';
import { handler as jwtOnly } from '@dbops/functions/authorizers/jwt-only';
import { handlerLoaders } from '@dbops/functions/handlers';
import { responseMismatch } from '@dbops/functions/openapi/check-response';
import { applyProcessSettings, type Container, domainDeps, setContainer } from '@dbops/functions/runtime';
import { prewarmAnalysis } from '@dbops/core/analysis';
import { registerHandlerLoaders } from '@dbops/functions/runtime';
import { errorFields, logger } from '@dbops/functions/runtime';
import { type HandlerName, routes } from '@dbops/functions/routes';
import { createLocalJWKSet } from 'jose';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CONSOLE_DIST } from '@dbops/web/build';
import { createGateway } from './gateway/emulator';
import { secureHome } from './home-permissions';
import { createConsoleFiles } from './static/console-files';
import { installInProcessMigrationQueue } from './queue/install-migration-queue';
import { installEmbeddedSharedInstance } from './shared-instance/install-shared-instance';
import { installLocalDocumentUploads } from './uploads/install-document-uploads';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalIssuer, loadLocalIssuer } from './local-issuer';

/** Options of {@link startLocalRuntime}; every field has a default from the environment. */
export interface LocalRuntimeOptions {
  /** Port to listen on; 0 picks a free one. Default `PORT` or 4000. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Environment to read settings from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Keep the state store in memory instead of `<home>/state` (tests). */
  inMemoryState?: boolean;
  /** Clock for handlers (tests inject one to move time). */
  clock?: Clock;
  /** Built web console served at `/`; default packages/web/dist, null serves none. */
  consoleDir?: string | null;
  /**
   * Check every success answer against its route's response schema and turn a mismatch into a
   * 500 naming it (tests: the handlers keep the promises of the OpenAPI document and the CLI).
   */
  checkResponses?: boolean;
}

export interface LocalRuntime {
  /** e.g. http://127.0.0.1:4000/api/v1 */
  baseUrl: string;
  origin: string;
  home: string;
  issuer: LocalIssuer;
  container: Container;
  close(): Promise<void>;
}

async function openStore(databaseUrl: string | undefined, home: string, inMemory: boolean): Promise<Store> {
  if (databaseUrl) return new PgStore({ connectionString: databaseUrl });
  if (inMemory) return PgliteStore.open();
  await mkdir(home, { recursive: true });
  return PgliteStore.open(path.join(home, 'state'));
}

/** Starts the whole service in this process: state store, authorizers, handlers, gateway. */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const settings = loadSettings(options.env ?? process.env);
  await applyProcessSettings(settings);
  // Owner-only state directory, checked and fixed at every start (home-permissions.ts).
  const homeCheck = await secureHome(settings.home);
  if (homeCheck.fixed.length > 0)
    logger.warn('narrowed permissions under DBOPS_HOME to owner-only', { count: homeCheck.fixed.length, examples: homeCheck.fixed.slice(0, 5) });
  const store = await openStore(settings.databaseUrl, settings.home, options.inMemoryState ?? false);
  await migrate(store, serviceMigrations);
  const issuer = await loadLocalIssuer(settings.home);

  const container: Container = {
    settings,
    store,
    clock: options.clock ?? systemClock,
    verifyJwt: createJwtVerifier({ issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE }, createLocalJWKSet(issuer.jwks)),
    background: new Set(),
  };
  // The clone the next analysis needs, built while the user reads the introspection's answer.
  container.afterIntrospection = (input) => {
    const work = prewarmAnalysis(domainDeps(container), input).catch((e: unknown) => logger.debug('sandbox prewarm failed', { error: String(e) }));
    container.background.add(work);
    void work.finally(() => container.background.delete(work));
  };
  setContainer(container);
  registerHandlerLoaders(handlerLoaders);
  // Migrations run in this process; close() waits for them through container.background.
  installInProcessMigrationQueue(container);
  // Managed databases: an embedded PostgreSQL under DBOPS_HOME, started on first need only.
  const stopSharedInstance = installEmbeddedSharedInstance(container);
  // Upload slots: files under DBOPS_HOME, ingested by the in-process document queue.
  let origin = '';
  const uploads = installLocalDocumentUploads(container, () => origin);

  const server = createGateway({
    routes,
    maxBodyBytes: settings.maxBodyBytes,
    timeoutMs: settings.gatewayTimeoutSeconds * 1000,
    loadHandler: async (route) => (await handlerLoaders[route.handler as HandlerName]()).handler,
    authorizerFor: (route) => (route.auth === 'none' ? undefined : route.auth === 'jwt' ? jwtOnly : apiKeyOrJwt),
    extraRoutes: {
      'GET /.well-known/jwks.json': () => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(issuer.jwks),
      }),
    },
    onError: (error) => logger.error('gateway error', errorFields(error)),
    intercept: uploads.intercept,
    ...(options.checkResponses ? { checkResponse: responseMismatch } : {}),
    ...(options.consoleDir === null ? {} : { staticFiles: createConsoleFiles(options.consoleDir ?? CONSOLE_DIST) }),
  });

  const port = options.port ?? settings.port;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  origin = `http://${host}:${address.port}`;

  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    home: settings.home,
    issuer,
    container,
    async close() {
      uploads.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...container.background]);
      await stopSharedInstance();
      setContainer(undefined);
      await store.close();
    },
  };
}
