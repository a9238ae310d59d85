import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

/** Options of an API Gateway HTTP API (payload 2.0) request. */
export interface V2Request {
  method: string;
  /** Route key path with placeholders, e.g. `/api/v1/connections/{connection_id}`. */
  routePath: string;
  /** Concrete path, e.g. `/api/v1/connections/1b...`. Defaults to `routePath`. */
  rawPath?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  body?: string;
}

const requestContextBase = (r: V2Request, requestId: string) => {
  const now = Date.now();
  return {
    accountId: '123456789012',
    apiId: 'a1b2c3d4e5',
    domainName: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
    domainPrefix: 'a1b2c3d4e5',
    http: { method: r.method, path: r.rawPath ?? r.routePath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
    requestId,
    routeKey: `${r.method} ${r.routePath}`,
    stage: '$default',
    time: new Date(now).toUTCString(),
    timeEpoch: now,
  };
};

const query = (q: Record<string, string> | undefined): string => (q ? new URLSearchParams(q).toString() : '');

/**
 * The event API Gateway sends a route's integration, as documented for payload 2.0, with the
 * Lambda authorizer's context under `requestContext.authorizer.lambda`.
 */
export function v2ProxyEvent<A>(r: V2Request, authorizerContext?: A): APIGatewayProxyEventV2WithLambdaAuthorizer<A> {
  const requestId = randomUUID();
  const headers = {
    host: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
    'user-agent': 'vitest',
    ...(r.body ? { 'content-type': 'application/json' } : {}),
    ...r.headers,
  };
  return {
    version: '2.0',
    routeKey: `${r.method} ${r.routePath}`,
    rawPath: r.rawPath ?? r.routePath,
    rawQueryString: query(r.queryStringParameters),
    headers,
    ...(r.queryStringParameters ? { queryStringParameters: r.queryStringParameters } : {}),
    ...(r.pathParameters ? { pathParameters: r.pathParameters } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
    isBase64Encoded: false,
    requestContext: {
      ...requestContextBase(r, requestId),
      ...(authorizerContext !== undefined ? { authorizer: { lambda: authorizerContext } } : {}),
    },
  } as APIGatewayProxyEventV2WithLambdaAuthorizer<A>;
}

/** The event a REQUEST Lambda authorizer (payload 2.0) receives; no identity sources configured. */
export function v2AuthorizerEvent(r: V2Request): APIGatewayRequestAuthorizerEventV2 {
  const requestId = randomUUID();
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/$default/${r.method}${r.rawPath ?? r.routePath}`,
    identitySource: [],
    routeKey: `${r.method} ${r.routePath}`,
    rawPath: r.rawPath ?? r.routePath,
    rawQueryString: query(r.queryStringParameters),
    cookies: [],
    headers: { host: 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com', ...r.headers },
    ...(r.queryStringParameters ? { queryStringParameters: r.queryStringParameters } : {}),
    requestContext: requestContextBase(r, requestId),
    pathParameters: r.pathParameters ?? {},
    stageVariables: {},
  } as unknown as APIGatewayRequestAuthorizerEventV2;
}

/** A Lambda context as the runtime passes it. */
export const lambdaContext = (functionName: string): Context =>
  ({
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/11/22/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 20_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;
