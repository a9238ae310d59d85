import SwaggerParser from '@apidevtools/swagger-parser';
import { routes } from '@dbops/functions/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('the OpenAPI document and reference page over HTTP', () => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await startTestRuntime();
  });
  afterAll(() => t.close());

  it('serves a valid OpenAPI 3.1 document of every route, without credentials', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeTruthy();
    for (const route of routes) expect(res.body.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
  });

  it('documents a request the way the service validates it', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const schema = doc.paths['/api/v1/api-keys'].post.requestBody.content['application/json'].schema;
    // The schema says name is required; the service agrees.
    expect(schema.required).toContain('name');
    const jwt = await t.jwt('openapi-user');
    const res = await t.request('POST', '/api-keys', { jwt, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'name']);
  });

  it('serves the reference page with every operation and no script', async () => {
    const res = await t.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    for (const route of routes) expect(res.text).toContain(route.path.replace(/&/g, '&amp;'));
    // Success bodies from the route table's response schemas, e.g. the analysis report's token.
    expect(res.text).toContain('approval_token');
    expect(res.text).toContain('last_introspected_at');
    // A referenced schema is on the page too: the optimizer's recursive plan node.
    expect(res.text).toContain('id="schema-PlanNode"');
    expect(res.text).toContain('actual_total_time');
    expect(res.text).not.toContain('<script');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
