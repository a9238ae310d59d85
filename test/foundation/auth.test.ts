import type { webcrypto } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';

type CryptoKey = webcrypto.CryptoKey;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('authentication', () => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await startTestRuntime();
  });
  afterAll(() => t.close());

  const sign = async (claims: { iss?: string; aud?: string; sub?: string; exp?: number }, key?: CryptoKey, kid = 'other') => {
    const ownKey = key ?? (await generateKeyPair('ES256')).privateKey;
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(claims.iss ?? 'dbops-local')
      .setAudience(claims.aud ?? 'dbops')
      .setSubject(claims.sub ?? 'mallory')
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(ownKey);
  };

  it('answers 401 without credentials', async () => {
    const res = await t.request('GET', '/billing/balance');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('accepts a JWT from the local issuer and creates the user with free credits', async () => {
    const res = await t.request('GET', '/billing/balance', { jwt: await t.jwt('new-user') });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ balance: '10.0000', total_spent: '0.0000', total_requests: 0, cost_per_request: '0.0050' });
  });

  it.each([
    ['an expired JWT', async (t: TestRuntime) => t.jwt('alice', -120)],
    ['a JWT signed by another key', async () => sign({})],
    ['a JWT with alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: 'dbops-local', aud: 'dbops', sub: 'alice', exp: 9999999999 })}.`],
    [
      'a JWT with an HMAC algorithm',
      async () => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: 'dbops-local', aud: 'dbops', sub: 'alice', exp: 9999999999 })}.c2ln`,
    ],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses %s with 403', async (_name, make) => {
    const res = await t.request('GET', '/billing/balance', { jwt: await make(t) });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses a JWT for another issuer or audience even when signed by the right key', async () => {
    // Re-sign with the runtime's own key, changing only the claim under test.
    const { importJWK } = await import('jose');
    const { readFile } = await import('node:fs/promises');
    const keyFile = JSON.parse(await readFile(`${t.runtime.home}/jwt/signing-key.json`, 'utf8')) as { privateJwk: { kid: string } };
    const key = (await importJWK(keyFile.privateJwk as never, 'ES256')) as CryptoKey;
    const kid = keyFile.privateJwk.kid;
    const good = await sign({ sub: 'bob' }, key, kid);
    expect((await t.request('GET', '/billing/balance', { jwt: good })).status).toBe(200);
    expect((await t.request('GET', '/billing/balance', { jwt: await sign({ iss: 'https://evil.example' }, key, kid) })).status).toBe(403);
    expect((await t.request('GET', '/billing/balance', { jwt: await sign({ aud: 'other-service' }, key, kid) })).status).toBe(403);
  });

  it('refuses an Authorization header that is not a bearer token', async () => {
    const res = await t.request('GET', '/billing/balance', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(res.status).toBe(403);
  });

  it('accepts an API key on resource endpoints and refuses unknown ones', async () => {
    const key = await t.apiKey('carol');
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(200);
    expect((await t.request('GET', '/billing/balance', { apiKey: `${key.slice(0, -2)}xx` })).status).toBe(403);
    expect((await t.request('GET', '/billing/balance', { apiKey: 'not-a-key' })).status).toBe(403);
  });

  it('refuses API keys for API key management with a clear 403', async () => {
    const key = await t.apiKey('dave');
    for (const [method, path] of [
      ['POST', '/api-keys'],
      ['GET', '/api-keys'],
      ['DELETE', '/api-keys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await t.request(method, path, { apiKey: key, body: method === 'POST' ? { name: 'x' } : undefined });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/API keys cannot manage API keys/);
    }
  });
});
