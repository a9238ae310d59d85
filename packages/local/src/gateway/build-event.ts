import type { ApiEvent } from '@dbops/functions/http';
import type { RouteDefinition } from '@dbops/functions/routes';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { IncomingMessage } from 'node:http';

/** The request as API Gateway HTTP API sees it, before authorizers run. */
export interface GatewayRequest {
  method: string;
  rawPath: string;
  rawQueryString: string;
  headers: Record<string, string>;
  cookies: string[];
  queryStringParameters: Record<string, string> | undefined;
  body: Buffer;
  sourceIp: string;
  requestId: string;
  time: Date;
}

const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded))/i;

/** API Gateway passes text bodies as is and base64-encodes everything else (multipart included). */
export const isTextBody = (contentType: string | undefined): boolean => !contentType || TEXT_TYPES.test(contentType);

/** Lower-cases header names and joins repeated headers with commas, as payload 2.0 does. */
export function readGatewayRequest(req: IncomingMessage, body: Buffer, requestId: string): GatewayRequest {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  let cookies: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    if (name === 'cookie') {
      cookies = cookies.concat(
        value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      );
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    cookies,
    queryStringParameters: url.searchParams.size > 0 ? query : undefined,
    body,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    requestId,
    time: new Date(),
  };
}

const requestContext = (r: GatewayRequest, route: RouteDefinition) => ({
  accountId: 'local',
  apiId: 'local',
  domainName: r.headers.host ?? 'localhost',
  domainPrefix: 'localhost',
  http: { method: r.method, path: r.rawPath, protocol: 'HTTP/1.1', sourceIp: r.sourceIp, userAgent: r.headers['user-agent'] ?? '' },
  requestId: r.requestId,
  routeKey: `${route.method} ${route.path}`,
  stage: '$default',
  time: r.time.toUTCString(),
  timeEpoch: r.time.getTime(),
});

/** The REQUEST authorizer event (payload 2.0) for a route. */
export function buildAuthorizerEvent(r: GatewayRequest, route: RouteDefinition, params: Record<string, string>): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:local:local/$default/${route.method}${route.path}`,
    identitySource: [r.headers['x-api-key'], r.headers.authorization].filter((v): v is string => v !== undefined),
    routeKey: `${route.method} ${route.path}`,
    rawPath: r.rawPath,
    rawQueryString: r.rawQueryString,
    cookies: r.cookies,
    headers: r.headers,
    queryStringParameters: r.queryStringParameters ?? {},
    requestContext: requestContext(r, route),
    pathParameters: params,
    stageVariables: {},
  } as APIGatewayRequestAuthorizerEventV2;
}

/** The handler event (payload 2.0), with the authorizer's context under `authorizer.lambda`. */
export function buildHandlerEvent(
  r: GatewayRequest,
  route: RouteDefinition,
  params: Record<string, string>,
  authorizerContext: Record<string, unknown> | undefined,
): ApiEvent {
  const text = isTextBody(r.headers['content-type']);
  const event = {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: r.rawPath,
    rawQueryString: r.rawQueryString,
    cookies: r.cookies.length > 0 ? r.cookies : undefined,
    headers: r.headers,
    queryStringParameters: r.queryStringParameters,
    pathParameters: Object.keys(params).length > 0 ? params : undefined,
    requestContext: {
      ...requestContext(r, route),
      ...(authorizerContext ? { authorizer: { lambda: authorizerContext } } : {}),
    },
    body: r.body.length > 0 ? r.body.toString(text ? 'utf8' : 'base64') : undefined,
    isBase64Encoded: r.body.length > 0 && !text,
  };
  return event as unknown as ApiEvent;
}
