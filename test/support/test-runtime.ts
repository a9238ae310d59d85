import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '@dbops/local';
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

export interface TestRuntime {
  runtime: LocalRuntime;
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
export async function startTestRuntime(options: { env?: Record<string, string>; runtime?: LocalRuntimeOptions } = {}): Promise<TestRuntime> {
  const home = await mkdtemp(path.join(tmpdir(), 'dbops-home-'));
  const runtime = await startLocalRuntime({
    port: 0,
    inMemoryState: true,
    // Every answer of a route with a response schema is checked against it (a mismatch is a 500).
    checkResponses: true,
    ...options.runtime,
    env: { ...process.env, DBOPS_HOME: home, DBOPS_LOG_LEVEL: process.env.TEST_LOG ?? 'silent', ...options.env },
  });

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
      await rm(home, { recursive: true, force: true });
    },
  };
}
