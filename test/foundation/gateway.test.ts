import { routes } from '@dbops/functions/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('local gateway', () => {
  let t: TestRuntime;
  let jwt: string;

  beforeAll(async () => {
    t = await startTestRuntime({ env: { DBOPS_MAX_BODY_BYTES: '2048' } });
    jwt = await t.jwt('gateway-user');
  });
  afterAll(() => t.close());

  it('answers the health check without credentials', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { status: 'ok' }, error: null });
  });

  it('answers 404 with the envelope for an unknown route', async () => {
    const res = await t.request('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, data: null, error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nowhere' } });
  });

  it('answers 405 with an Allow header for a wrong method', async () => {
    const res = await t.request('PUT', '/api-keys', { jwt });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers 413 for a body over the payload limit', async () => {
    const res = await t.request('POST', '/api-keys', { jwt, body: { name: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers malformed JSON with the spec validation body', async () => {
    const res = await t.request('POST', '/api-keys', { jwt, body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toHaveLength(1);
    expect(res.body.detail[0]).toMatchObject({ msg: 'JSON decode error', type: 'json_invalid' });
    expect(res.body.detail[0].loc[0]).toBe('body');
    expect(Object.keys(res.body.detail[0]).sort()).toEqual(['ctx', 'input', 'loc', 'msg', 'type']);
  });

  it('answers JSON that is not an object with the spec validation body', async () => {
    for (const body of ['[1,2]', '"name"', '42', 'null']) {
      const res = await t.request('POST', '/api-keys', { jwt, body, headers: { 'content-type': 'application/json' } });
      expect(res.status, body).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
    }
  });

  it('answers a missing body as a missing field', async () => {
    const res = await t.request('POST', '/api-keys', { jwt });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'missing', msg: 'Field required' });
  });

  it('ignores unknown fields', async () => {
    const res = await t.request('POST', '/api-keys', { jwt, body: { name: 'extra', color: 'blue' } });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('color');
  });

  it('validates path parameters as UUIDs', async () => {
    const res = await t.request('DELETE', '/api-keys/not-a-uuid', { jwt });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['path', 'key_id'], type: 'uuid_parsing', input: 'not-a-uuid' });
  });

  it('lists every endpoint of the spec in the route table and answers 501 for the ones not built yet', async () => {
    const keys = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const expected of [
      'POST /api/v1/connections',
      'POST /api/v1/connections/{connection_id}/introspect',
      'POST /api/v1/connections/{connection_id}/migrations/analyze',
      'POST /api/v1/migrations/execute',
      'GET /api/v1/migrations/requests/{request_id}',
      'POST /api/v1/connections/{connection_id}/queries/optimize',
      'POST /api/v1/connections/{connection_id}/queries/generate',
      'POST /api/v1/execute',
      'POST /api/v1/connections/{connection_id}/documents/upload',
      'GET /api/v1/connections/{connection_id}/documents',
      'POST /api/v1/connections/{connection_id}/context/query',
      'POST /api/v1/api-keys',
      'GET /api/v1/api-keys',
      'DELETE /api/v1/api-keys/{key_id}',
      'GET /api/v1/billing/balance',
      'POST /api/v1/billing/checkout',
      'GET /api/v1/billing/usage',
      'GET /api/v1/billing/payments',
      'POST /api/v1/billing/webhook',
      'POST /api/v1/provision',
      'GET /api/v1/provision',
      'DELETE /api/v1/provision/{provision_id}',
    ]) {
      expect(keys, expected).toContain(expected);
    }
    for (const route of routes) {
      const path = route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000').replace('/api/v1', '');
      const res = await t.request(route.method, path, { jwt, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      expect(res.status, `${route.method} ${route.path}`).not.toBe(500);
      if (res.status === 501) expect(res.body.error.code).toBe('NOT_IMPLEMENTED');
    }
  }, 120_000);

  it('serves the local issuer JWKS', async () => {
    const res = await fetch(`${t.runtime.origin}/.well-known/jwks.json`);
    const body = (await res.json()) as { keys: Array<{ kty: string; alg: string; d?: string }> };
    expect(body.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256' });
    expect(body.keys[0]?.d).toBeUndefined();
  });
});
