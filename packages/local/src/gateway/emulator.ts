import type { ApiHandler } from '@dbops/functions/http';
import type { HttpResult } from '@dbops/functions/http';
import type { RouteDefinition } from '@dbops/functions/routes';
import type { APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerClientError } from './client-error';
import { buildAuthorizerEvent, buildHandlerEvent, readGatewayRequest } from './build-event';
import { discardBody } from './discard-body';
import { createRouteMatcher } from './route-matcher';

type AuthorizerFn = (event: APIGatewayRequestAuthorizerEventV2) => Promise<{ isAuthorized: boolean; context?: object }>;

/** What the emulator needs; everything comes from the route table and its modules. */
export interface GatewayOptions {
  routes: readonly RouteDefinition[];
  loadHandler(route: RouteDefinition): Promise<ApiHandler>;
  /** The authorizer for a route, or undefined for `auth: none`. */
  authorizerFor(route: RouteDefinition): AuthorizerFn | undefined;
  /** API Gateway's payload limit is 10 MB; bigger bodies get 413. */
  maxBodyBytes: number;
  /** Extra non-API routes (the local JWKS), answered before the route table. */
  extraRoutes?: Record<string, (req: IncomingMessage) => HttpResult>;
  /** Answers paths outside /api/ (the web console's static files); undefined falls through to 404. */
  staticFiles?(method: string, path: string): HttpResult | undefined;
  onError?(error: unknown): void;
  /**
   * Checks a handler's answer before it is sent (tests: against the route's response schema).
   * A non-null result is a defect in the handler: it is reported through `onError` and the client
   * gets a 500 INTERNAL_ERROR naming it, so the test that made the request fails.
   */
  checkResponse?(route: RouteDefinition, result: HttpResult): string | null;
  /** The integration timeout the handlers see through `getRemainingTimeInMillis` (API Gateway's 30 s by default). */
  timeoutMs?: number;
  /** Requests served outside the API (local upload slots): a promise when taken, undefined otherwise. */
  intercept?(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const envelope = (status: number, code: string, message: string, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify({ success: false, data: null, error: { code, message } }),
});

function send(res: ServerResponse, result: HttpResult, requestId: string): void {
  const headers: Record<string, string> = { 'apigw-requestid': requestId };
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

/** Most bytes of an oversized body read and discarded so that the client can read the 413. */
const DISCARD_BOUND = 64 * 1024 * 1024;

/**
 * Answers a refused oversized body so that a client still sending it can read the answer: the
 * rest of the body is read and discarded (up to a bound) first, then the connection is closed.
 * Closing at once, as before, made fetch see a connection reset instead of the 413.
 */
async function sendTooLarge(req: IncomingMessage, res: ServerResponse, result: HttpResult, requestId: string): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared <= DISCARD_BOUND) await discardBody(req, DISCARD_BOUND);
  res.setHeader('connection', 'close');
  send(res, result, requestId);
}

/** Payload 2.0 lets a handler return a bare object; API Gateway then answers 200 JSON. */
function normalize(result: unknown): HttpResult {
  if (result !== null && typeof result === 'object' && 'statusCode' in result) return result as HttpResult;
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result ?? null) };
}

const lambdaContext = (requestId: string, name: string, timeoutMs: number, startedAt = Date.now()): Context =>
  ({
    awsRequestId: requestId,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:local:function:${name}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, startedAt + timeoutMs - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

/**
 * A small API Gateway HTTP API: matches the route table, runs the route's Lambda authorizer
 * (401 without any credential header, 403 on a deny), builds the payload 2.0 event and maps
 * the handler's result back to HTTP.
 */
export function createGateway(options: GatewayOptions): Server {
  const match = createRouteMatcher(options.routes);
  // A Lambda instance imports its module once; so does the emulator. Re-running import() per
  // request is not free under a loader hook (tsx resolves every call on its worker thread).
  const handlers = new Map<RouteDefinition, Promise<ApiHandler>>();
  const handlerFor = (route: RouteDefinition): Promise<ApiHandler> => {
    let loading = handlers.get(route);
    if (!loading) {
      loading = options.loadHandler(route);
      loading.catch(() => handlers.delete(route));
      handlers.set(route, loading);
    }
    return loading;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const extra = options.extraRoutes?.[`${req.method} ${path}`];
    if (extra) return send(res, extra(req), requestId);
    if (options.staticFiles && !path.startsWith('/api/')) {
      const file = options.staticFiles((req.method ?? 'GET').toUpperCase(), path);
      if (file) {
        req.resume();
        return send(res, file, requestId);
      }
    }

    const found = match((req.method ?? 'GET').toUpperCase(), path);
    if (found.kind === 'not_found') {
      req.resume();
      return send(res, envelope(404, 'NOT_FOUND', `No route for ${req.method} ${path}`), requestId);
    }
    if (found.kind === 'method_not_allowed') {
      req.resume();
      return send(
        res,
        envelope(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; use ${found.allowed.join(', ')}`, { allow: found.allowed.join(', ') }),
        requestId,
      );
    }

    let body: Buffer;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return sendTooLarge(req, res, envelope(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${options.maxBodyBytes} bytes`), requestId);
      throw error;
    }

    const request = readGatewayRequest(req, body, requestId);
    const { route, params } = found;
    let authorizerContext: Record<string, unknown> | undefined;
    const authorizer = options.authorizerFor(route);
    if (authorizer) {
      if (request.headers['x-api-key'] === undefined && request.headers.authorization === undefined) {
        return send(res, envelope(401, 'UNAUTHORIZED', 'Missing credentials: send X-API-Key: <API_KEY> or Authorization: Bearer <JWT>'), requestId);
      }
      const decision = await authorizer(buildAuthorizerEvent(request, route, params));
      if (!decision.isAuthorized) {
        const reason = (decision.context as { reason?: unknown } | undefined)?.reason;
        return send(res, envelope(403, 'FORBIDDEN', typeof reason === 'string' ? reason : 'Forbidden'), requestId);
      }
      authorizerContext = { ...decision.context };
    }

    const handler = await handlerFor(route);
    const result = normalize(
      await handler(buildHandlerEvent(request, route, params, authorizerContext), lambdaContext(requestId, route.handler, options.timeoutMs ?? 30_000)),
    );
    const mismatch = options.checkResponse?.(route, result);
    if (mismatch) {
      options.onError?.(new Error(mismatch));
      return send(res, envelope(500, 'INTERNAL_ERROR', mismatch), requestId);
    }
    send(res, result, requestId);
  };

  const server = createServer((req, res) => {
    (options.intercept?.(req, res) ?? handle(req, res)).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) send(res, envelope(500, 'INTERNAL_ERROR', 'Internal Server Error'), 'unknown');
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  // Keep idle connections open longer than clients do (undici: 4 s), so a client never reuses
  // a socket the server is closing at that instant (ECONNRESET under load).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
