import { admitBillableRequest } from '@dbops/core/billing';
import { AppError } from '@dbops/core/errors';
import middy from '@middy/core';
import { z } from 'zod';
import { type HandlerName, routeOf } from '../routes';
import { type Container, getContainer } from '../runtime/container';
import { requestCachesOf } from '../runtime/request-caches';
import { type AuthContext, isAuthContext } from './auth-context';
import { errorToResponse } from './error-response';
import { enforceKeyPolicyOnRoute, keyPolicyOf } from './key-policy';
import type { ApiEvent, LambdaContext } from './event';
import { parseOrThrow, readJsonBody } from './parse-input';
import type { HttpResult } from './responses';

/** What a handler's `handle` receives: validated input, identity and the container. */
export interface HandlerRequest<B, P, Q, A> {
  body: B;
  params: P;
  query: Q;
  auth: A;
  event: ApiEvent;
  /** The Lambda context (remaining time); absent when a handler is called in-process without one. */
  lambda: LambdaContext | undefined;
  container: Container;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerSpec<BS, PS, QS, A> {
  /** Schema of the JSON body; omit for routes without a body. */
  body?: BS;
  /** Schema of the path parameters. */
  params?: PS;
  /** Schema of the query string parameters. */
  query?: QS;
  handle(request: HandlerRequest<Out<BS>, Out<PS>, Out<QS>, A>): Promise<HttpResult>;
  /**
   * Admission after validation and before the charge (a per-user concurrency limit): throws to
   * refuse the request uncharged, or returns the function that frees its place once `handle` ends.
   */
  admit?(request: { auth: A; container: Container }): () => void;
}

export type ApiHandler = (event: ApiEvent, context: LambdaContext) => Promise<HttpResult>;

/** The request schemas a handler validates with; the OpenAPI document is generated from them. */
export interface HandlerContract {
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
}

/** A route handler that carries its request schemas, so they are written once. */
export type ContractHandler = ApiHandler & { contract: HandlerContract };

const withContract = (handler: ApiHandler, spec: { body?: unknown; params?: unknown; query?: unknown }): ContractHandler =>
  Object.assign(handler, {
    contract: {
      body: spec.body as z.ZodType | undefined,
      params: spec.params as z.ZodType | undefined,
      query: spec.query as z.ZodType | undefined,
    },
  });

const CREDITS_HEADER = 'X-Credits-Remaining';

function build<BS, PS, QS, A>(name: HandlerName, spec: HandlerSpec<BS, PS, QS, A>, authenticated: boolean): ContractHandler {
  const route = routeOf(name);

  const base = async (event: ApiEvent, lambda?: LambdaContext): Promise<HttpResult> => {
    const container = await getContainer();
    const lambdaCtx = event.requestContext.authorizer?.lambda;
    let auth: AuthContext | null = null;
    const rateLimit = { limit: container.settings.rateLimit, windowMs: container.settings.rateLimitWindowSeconds * 1000 };
    // A billable request that passes validation is counted and charged in one statement; every
    // other request (free, or failing validation) is counted on its own first. Either way the
    // rate limit is checked before validation errors and before the charge.
    const billable = route.billable && authenticated;
    const leases = requestCachesOf(container).rateLimits;
    if (authenticated) {
      if (!isAuthContext(lambdaCtx)) throw new AppError('UNAUTHORIZED', 'Missing or invalid credentials');
      auth = lambdaCtx;
      if (!billable) await leases.consume(container.store, auth.userId, rateLimit, container.clock);
    }
    let params: unknown;
    let query: unknown;
    let body: unknown;
    try {
      params = spec.params ? parseOrThrow(spec.params as unknown as z.ZodType, event.pathParameters ?? {}, 'path') : undefined;
      query = spec.query ? parseOrThrow(spec.query as unknown as z.ZodType, event.queryStringParameters ?? {}, 'query') : undefined;
      body = spec.body ? parseOrThrow(spec.body as unknown as z.ZodType, readJsonBody(event), 'body') : undefined;
      // Refused before the charge, like invalid input: the key may not make this request at all.
      enforceKeyPolicyOnRoute(name, keyPolicyOf(auth), params, body);
    } catch (error) {
      if (billable && auth) await leases.consume(container.store, auth.userId, rateLimit, container.clock);
      throw error;
    }

    const release = spec.admit?.({ auth: auth as A, container });
    let remaining: string | undefined;
    let result: HttpResult;
    try {
      if (billable && auth) {
        const request = { method: event.requestContext.http.method, path: event.rawPath };
        remaining = await admitBillableRequest(container.store, leases, auth.userId, request, rateLimit, container.clock);
      }
      try {
        result = await spec.handle({ body, params, query, auth, event, lambda, container } as HandlerRequest<Out<BS>, Out<PS>, Out<QS>, A>);
      } catch (error) {
        result = errorToResponse(error, event.requestContext.requestId);
      }
    } finally {
      release?.();
    }
    return remaining === undefined ? result : { ...result, headers: { ...result.headers, [CREDITS_HEADER]: remaining } };
  };

  const handler = middy<ApiEvent, HttpResult>()
    .use({
      onError: async (request) => {
        request.response = errorToResponse(request.error, request.event.requestContext?.requestId);
      },
    })
    .handler(base) as unknown as ApiHandler;
  return withContract(handler, spec);
}

/** A handler behind an authorizer: identity, rate limit, validation, billing, then `handle`. */
export function defineHandler<
  BS extends z.ZodType | undefined = undefined,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
>(name: HandlerName, spec: HandlerSpec<BS, PS, QS, AuthContext>): ContractHandler {
  return build(name, spec, true);
}

/** A handler without an authorizer (health check, payment webhook). */
export function definePublicHandler<
  BS extends z.ZodType | undefined = undefined,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
>(name: HandlerName, spec: HandlerSpec<BS, PS, QS, null>): ContractHandler {
  return build(name, spec, false);
}

/** A handler for an endpoint of the route table that is not built yet: 501 with the envelope. */
export function notImplemented(name: HandlerName): ApiHandler {
  const route = routeOf(name);
  return async () => errorToResponse(new AppError('NOT_IMPLEMENTED', `${route.method} ${route.path} is not implemented yet`));
}

/** Path parameter schemas shared by many routes. */
export const uuidParam = <K extends string>(name: K) => z.object({ [name]: z.uuid() } as Record<K, z.ZodUUID>);
