import type { AuthContext } from '@dbops/functions/http';
import type { HttpResult } from '@dbops/functions/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as apiKeyOrJwt } from '../../packages/functions/src/authorizers/api-key-or-jwt';
import { handler as jwtOnly } from '../../packages/functions/src/authorizers/jwt-only';
import { handler as apiKeysList } from '../../packages/functions/src/handlers/api-keys-list';
import { handler as apiKeysRevoke } from '../../packages/functions/src/handlers/api-keys-revoke';
import { handler as health } from '../../packages/functions/src/handlers/health';
import { lambdaContext, v2AuthorizerEvent, v2ProxyEvent } from '../support/deploy';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

/**
 * The handler modules as Lambda runs them: invoked directly with API Gateway HTTP API payload
 * 2.0 events (the authorizer's output under requestContext.authorizer.lambda), against the
 * container the local runtime installs.
 */
let t: TestRuntime;

beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  await t?.close();
});

const json = (r: HttpResult) => JSON.parse(r.body ?? 'null') as { success: boolean; data: any; error: { code: string; message: string } | null };

async function authorize(fn: typeof apiKeyOrJwt, headers: Record<string, string>, routePath = '/api/v1/api-keys') {
  return fn(v2AuthorizerEvent({ method: 'GET', routePath, headers }));
}

describe('handlers invoked with API Gateway v2 events', () => {
  it('health answers 200 with the envelope and no authorizer context', async () => {
    const res = await health(v2ProxyEvent({ method: 'GET', routePath: '/api/v1/health' }) as never, lambdaContext('ApiHealth'));
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ success: true, data: { status: 'ok', version: 'v1' }, error: null });
  });

  it("an authenticated route serves the user named by the authorizer's context", async () => {
    const jwt = await t.jwt('v2-alice');
    const decision = await authorize(jwtOnly, { authorization: `Bearer ${jwt}` });
    expect(decision.isAuthorized).toBe(true);
    const ctx = decision.context as AuthContext;
    expect(ctx).toMatchObject({ authMethod: 'jwt' });
    expect(ctx.userId).toMatch(/^[0-9a-f-]{36}$/);

    await t.apiKey('v2-alice', 'from http');
    const res = await apiKeysList(v2ProxyEvent({ method: 'GET', routePath: '/api/v1/api-keys' }, ctx) as never, lambdaContext('ApiApiKeysList'));
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body.success).toBe(true);
    expect(JSON.stringify(body.data)).toContain('from http');
    expect(JSON.stringify(body.data)).not.toMatch(/dbo_[A-Za-z0-9_-]{20,}/);

    // Another user's context sees none of alice's keys.
    const bob = (await authorize(jwtOnly, { authorization: `Bearer ${await t.jwt('v2-bob')}` })).context as AuthContext;
    const bobs = json(await apiKeysList(v2ProxyEvent({ method: 'GET', routePath: '/api/v1/api-keys' }, bob) as never, lambdaContext('ApiApiKeysList')));
    expect(JSON.stringify(bobs.data)).not.toContain('from http');
  });

  it('validates path parameters of the v2 event (422, never 500)', async () => {
    const ctx = (await authorize(jwtOnly, { authorization: `Bearer ${await t.jwt('v2-carol')}` })).context as AuthContext;
    const res = await apiKeysRevoke(
      v2ProxyEvent(
        { method: 'DELETE', routePath: '/api/v1/api-keys/{key_id}', rawPath: '/api/v1/api-keys/not-a-uuid', pathParameters: { key_id: 'not-a-uuid' } },
        ctx,
      ) as never,
      lambdaContext('ApiApiKeysRevoke'),
    );
    expect(res.statusCode).toBe(422);
    // The spec's validation body names the offending parameter.
    expect(res.body).toContain('key_id');
  });

  it('answers 401 when the event carries no authorizer context', async () => {
    const res = await apiKeysList(v2ProxyEvent({ method: 'GET', routePath: '/api/v1/api-keys' }) as never, lambdaContext('ApiApiKeysList'));
    expect(res.statusCode).toBe(401);
    expect(json(res).error?.code).toBe('UNAUTHORIZED');
  });
});

describe('authorizers invoked as API Gateway calls them (no identity sources, TTL 0)', () => {
  it('deny a request without credentials (API Gateway then answers 403)', async () => {
    const decision = await authorize(apiKeyOrJwt, {}, '/api/v1/connections');
    expect(decision).toEqual({ isAuthorized: false, context: { reason: 'Missing credentials' } });
  });

  it('the JWT-only authorizer denies an API key; the other accepts it', async () => {
    const key = await t.apiKey('v2-dave');
    const denied = await authorize(jwtOnly, { 'x-api-key': key });
    expect(denied.isAuthorized).toBe(false);
    expect((denied.context as { reason: string }).reason).toMatch(/API keys cannot manage API keys/);
    const allowed = await authorize(apiKeyOrJwt, { 'x-api-key': key }, '/api/v1/connections');
    expect(allowed.isAuthorized).toBe(true);
    expect(allowed.context).toMatchObject({ authMethod: 'api_key' });
  });

  it('a revoked key fails on its very next request (nothing is cached)', async () => {
    const key = await t.apiKey('v2-erin');
    const ctx = (await authorize(jwtOnly, { authorization: `Bearer ${await t.jwt('v2-erin')}` })).context as AuthContext;
    const before = await authorize(apiKeyOrJwt, { 'x-api-key': key }, '/api/v1/connections');
    expect(before.isAuthorized).toBe(true);
    const keyId = (before.context as AuthContext).keyId!;
    const revoked = await apiKeysRevoke(
      v2ProxyEvent(
        { method: 'DELETE', routePath: '/api/v1/api-keys/{key_id}', rawPath: `/api/v1/api-keys/${keyId}`, pathParameters: { key_id: keyId } },
        ctx,
      ) as never,
      lambdaContext('ApiApiKeysRevoke'),
    );
    expect(revoked.statusCode).toBe(200);
    const after = await authorize(apiKeyOrJwt, { 'x-api-key': key }, '/api/v1/connections');
    expect(after).toEqual({ isAuthorized: false, context: { reason: 'Invalid or revoked API key' } });
  });

  it('denies an invalid JWT', async () => {
    const decision = await authorize(apiKeyOrJwt, { authorization: 'Bearer not.a.jwt' }, '/api/v1/connections');
    expect(decision.isAuthorized).toBe(false);
  });
});
