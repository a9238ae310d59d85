import type { APIGatewayProxyEventV2WithLambdaAuthorizer, Context } from 'aws-lambda';
import type { AuthContext } from './auth-context';

/** The API Gateway HTTP API (payload 2.0) event our handlers receive. */
export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthContext | Record<string, never>>;

export type LambdaContext = Context;

/** The raw request body as bytes (API Gateway base64-encodes binary bodies). */
export const bodyBytes = (event: ApiEvent): Buffer =>
  event.body === undefined || event.body === null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

/** A request header, case-insensitively (API Gateway already lower-cases them). */
export const header = (event: ApiEvent, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
};
