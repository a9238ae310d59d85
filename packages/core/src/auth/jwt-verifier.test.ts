import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJwtVerifier } from './jwt-verifier';

/** A stand-in OIDC provider: serves its JWKS over HTTP the way Cognito or Auth0 do. */
describe('createRemoteJwtVerifier', () => {
  let server: Server;
  let jwksUrl: string;
  let sign: (claims: { iss?: string; aud?: string; sub?: string }) => Promise<string>;
  let jwksHits = 0;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_req, res) => {
      jwksHits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
    sign = (c) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(c.iss ?? 'https://idp.example')
        .setAudience(c.aud ?? 'dbops-api')
        .setSubject(c.sub ?? 'user-1')
        .setExpirationTime('5m')
        .sign(privateKey);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('accepts a token of the configured issuer and audience, fetching the JWKS once', async () => {
    const verify = createRemoteJwtVerifier({ issuer: 'https://idp.example', audience: 'dbops-api', jwksUrl });
    expect(await verify(await sign({}))).toEqual({ issuer: 'https://idp.example', subject: 'user-1' });
    expect(await verify(await sign({ sub: 'user-2' }))).toEqual({ issuer: 'https://idp.example', subject: 'user-2' });
    expect(jwksHits).toBe(1);
  });

  it('refuses another issuer or audience', async () => {
    const verify = createRemoteJwtVerifier({ issuer: 'https://idp.example', audience: 'dbops-api', jwksUrl });
    expect(await verify(await sign({ iss: 'https://other.example' }))).toBeNull();
    expect(await verify(await sign({ aud: 'another-api' }))).toBeNull();
  });

  it('fails loudly when the JWKS cannot be fetched (the authorizer then denies)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const verify = createRemoteJwtVerifier({ issuer: 'https://idp.example', audience: 'dbops-api', jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
    await expect(verify(await sign({}))).rejects.toThrow();
  });
});
