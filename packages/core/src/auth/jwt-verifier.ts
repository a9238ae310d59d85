import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';

/** Which tokens the JWT authorizer accepts. */
export interface JwtSettings {
  /** Expected `iss` claim. */
  issuer: string;
  /** Expected `aud` claim. */
  audience: string;
  /** Where the issuer publishes its signing keys (OIDC `jwks_uri`). */
  jwksUrl: string;
}

/** The verified caller. */
export interface JwtIdentity {
  issuer: string;
  subject: string;
}

/** Asymmetric algorithms only: `none` and HMAC would let anyone who knows the audience mint tokens. */
const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'];

export type JwtVerifier = (token: string) => Promise<JwtIdentity | null>;

/** A verifier against a key set; returns null for any invalid, expired or foreign token. */
export function createJwtVerifier(settings: { issuer: string; audience: string }, keys: JWTVerifyGetKey): JwtVerifier {
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp'],
      });
      return payload.sub ? { issuer: settings.issuer, subject: payload.sub } : null;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  };
}

/** A verifier that fetches (and caches) the issuer's JWKS, for any OIDC provider. */
export function createRemoteJwtVerifier(settings: JwtSettings): JwtVerifier {
  return createJwtVerifier(settings, createRemoteJWKSet(new URL(settings.jwksUrl)));
}
