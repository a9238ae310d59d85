import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { AuthContext } from '../http/auth-context';
import { getContainer } from '../runtime/container';
import { requestCachesOf } from '../runtime/request-caches';
import { errorFields, logger } from '../runtime/logger';

/**
 * Context of a denial. API Gateway drops it (the caller sees a plain 403); the local runtime
 * shows `reason` in the error message so developers learn why.
 */
export interface DenyContext {
  reason: string;
}

export type AuthorizerResult = APIGatewaySimpleAuthorizerWithContextResult<AuthContext | DenyContext>;

const deny = (reason: string): AuthorizerResult => ({ isAuthorized: false, context: { reason } });
const allow = (context: AuthContext): AuthorizerResult => ({ isAuthorized: true, context });

const headerOf = (event: APIGatewayRequestAuthorizerEventV2, name: string): string | undefined => {
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === name) return v;
  return undefined;
};

/**
 * Decides a request for an authorizer. An API key's owner is remembered for
 * `DBOPS_AUTH_CACHE_SECONDS` (api-key-cache.ts): 0 in cloud mode, so a revoked key fails on its
 * very next request there; locally the revoke, in the same process, forgets the key at once.
 */
export async function authorize(event: APIGatewayRequestAuthorizerEventV2, options: { acceptApiKey: boolean }): Promise<AuthorizerResult> {
  try {
    const container = await getContainer();
    const apiKey = headerOf(event, 'x-api-key')?.trim();
    const authorization = headerOf(event, 'authorization')?.trim();
    const bearer = authorization && /^Bearer\s+/i.test(authorization) ? authorization.replace(/^Bearer\s+/i, '').trim() : undefined;

    if (apiKey && options.acceptApiKey) {
      const owner = await requestCachesOf(container).apiKeys.find(container.store, apiKey, container.clock.now().getTime());
      if (!owner) return deny('Invalid or revoked API key');
      const context: AuthContext = { userId: owner.userId, authMethod: 'api_key', keyId: owner.keyId };
      if (owner.policy) context.keyPolicy = JSON.stringify(owner.policy);
      return allow(context);
    }
    if (bearer) {
      const identity = await container.verifyJwt(bearer);
      if (!identity) return deny('Invalid or expired JWT');
      const userId = await requestCachesOf(container).users.find(container.store, identity.issuer, identity.subject);
      return allow({ userId, authMethod: 'jwt' });
    }
    if (apiKey) return deny('API keys cannot manage API keys; authenticate with a JWT (Authorization: Bearer <JWT>)');
    if (authorization) return deny('Authorization header must be "Bearer <JWT>"');
    return deny('Missing credentials');
  } catch (error) {
    // API Gateway answers 500 when an authorizer throws; denying keeps the failure closed.
    logger.error('authorizer failed', errorFields(error));
    return deny('Authorization is temporarily unavailable');
  }
}
