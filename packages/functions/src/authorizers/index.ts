import type { AuthScheme } from '../routes';

/** Authorizer module per auth scheme; `none` routes have no authorizer. */
export const authorizerFor: Record<Exclude<AuthScheme, 'none'>, string> = {
  api_key_or_jwt: 'api-key-or-jwt',
  jwt: 'jwt-only',
};

/** Headers whose absence means "no credentials" (401 before any authorizer runs). */
export const credentialHeaders = ['x-api-key', 'authorization'] as const;
