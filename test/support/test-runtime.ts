import { createJwtVerifier } from '@dbops/core/auth';
import { loadSettings } from '@dbops/core/config';
import { PgStore } from '@dbops/core/store';
import { systemClock } from '@dbops/core/util';
import { responseMismatch } from '@dbops/functions/openapi/check-response';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '@dbops/local';
import { type CloudRuntime, type CloudRuntimeOptions, startCloudRuntime } from '@dbops/local/cloud';
import { createLocalJWKSet } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as `Authorization: Bearer`. */
  jwt?: string;
  /** Sent as `X-API-Key`. */
  apiKey?: string;
  /** Serialised as JSON unless it is a string, Buffer or FormData. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Which shape a test runtime has: `local` is `npm start` (handlers in this process, PGlite state,
 * in-process queues); `cloud` is `npm run start:cloud` (the built Lambda bundles in processes of
 * their own, PostgreSQL with pgvector, SQS-semantics queues). test/cloud/ switches a file to the
 * cloud shape with {@link useRuntimeShape} before importing journey files, so the same journeys
 * run on both; `DBOPS_TEST_SHAPE=cloud` does it for a whole run.
 */
export type RuntimeShape = 'local' | 'cloud';
let defaultShape: RuntimeShape = process.env.DBOPS_TEST_SHAPE === 'cloud' ? 'cloud' : 'local';

/** Sets the shape of every test runtime this test file starts from now on (module state: one file). */
export function useRuntimeShape(shape: RuntimeShape): void {
  defaultShape = shape;
}

export interface TestRuntime {
  /**
   * The runtime. In the cloud shape its `container` is this test process's view of the same
   * state (a pg store on the state database, the same DBOPS_HOME key and secret files), for
   * tests that read or arrange state directly; the functions have their own.
   */
  runtime: LocalRuntime;
  shape: RuntimeShape;
  /** The cloud shape's runtime (Lambda service, queues), or undefined in the local shape. */
  cloud?: CloudRuntime;
  baseUrl: string;
  /** A JWT the runtime accepts for `user`. */
  jwt(user: string, ttlSeconds?: number): Promise<string>;
  /** Creates an API key for `user` through the API and returns the raw key. */
  apiKey(user: string, name?: string): Promise<string>;
  /** Calls the API; `path` is relative to /api/v1. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * The whole service as `npm start` runs it, on a free port with a fresh home directory and
 * in-memory state, so tests go through real HTTP, the emulated gateway and the authorizers.
 */
export async function startTestRuntime(
  options: { env?: Record<string, string>; runtime?: LocalRuntimeOptions; shape?: RuntimeShape; cloud?: Partial<CloudRuntimeOptions> } = {},
): Promise<TestRuntime> {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-home-'));
  const shape = options.shape ?? defaultShape;
  // No sandbox prewarm after each introspection unless a test asks: it would add a clone build per test runtime.
  const env: Record<string, string | undefined> = {
    ...process.env,
    DBOPS_HOME: home,
    DBOPS_LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
    DBOPS_SANDBOX_PREWARM: 'false',
    ...options.env,
  };
  let cloud: CloudRuntime | undefined;
  let runtime: LocalRuntime;
  if (shape === 'local') {
    runtime = await startLocalRuntime({
      port: 0,
      inMemoryState: true,
      // Every answer of a route with a response schema is checked against it (a mismatch is a 500).
      checkResponses: true,
      ...options.runtime,
      env,
    });
  } else {
    if (options.runtime?.clock) throw new Error('the cloud shape runs on the system clock: this test needs the local shape');
    const { createStateDatabase, localFunctions } = await import('./cloud-state');
    const databaseUrl = env.DBOPS_DATABASE_URL ?? (await createStateDatabase());
    cloud = await startCloudRuntime({
      functions: await localFunctions(),
      port: 0,
      consoleDir: options.runtime?.consoleDir === undefined ? null : options.runtime.consoleDir,
      checkResponse: responseMismatch,
      // Forty function processes share this machine's two cores: 29 s of Lambda is more here.
      apiTimeoutScale: 4,
      log: () => undefined,
      ...options.cloud,
      env: { ...env, DBOPS_DATABASE_URL: databaseUrl },
    });
    const settings = loadSettings({ ...env, DBOPS_DATABASE_URL: databaseUrl });
    const store = new PgStore({ connectionString: databaseUrl });
    const c = cloud;
    runtime = {
      baseUrl: c.baseUrl,
      origin: c.origin,
      home: c.home,
      issuer: c.issuer,
      container: {
        settings,
        store,
        clock: systemClock,
        verifyJwt: createJwtVerifier({ issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE }, createLocalJWKSet(c.issuer.jwks)),
        background: new Set(),
      },
      async close() {
        await c.close();
        await store.close();
      },
    };
  }

  const request = async <T>(method: string, p: string, o: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.jwt) headers.authorization = `Bearer ${o.jwt}`;
    if (o.apiKey) headers['x-api-key'] = o.apiKey;
    let body: RequestInit['body'];
    if (o.body instanceof FormData || typeof o.body === 'string' || o.body instanceof Uint8Array) {
      body = o.body as RequestInit['body'];
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${runtime.baseUrl}${p}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  return {
    runtime,
    shape,
    ...(cloud ? { cloud } : {}),
    baseUrl: runtime.baseUrl,
    jwt: (user, ttl) => runtime.issuer.sign(user, ttl),
    async apiKey(user, name = 'test key') {
      const res = await request<{ data: { key: string } }>('POST', '/api-keys', { jwt: await runtime.issuer.sign(user), body: { name } });
      if (res.status !== 201) throw new Error(`could not create API key: ${res.status} ${res.text}`);
      return res.body.data.key;
    },
    request,
    async close() {
      await runtime.close();
      // A sandbox clone's image may still be landing in the home's cache (written after the
      // answer, by temp file and rename): removal retries rather than fail on a file that appeared.
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}
