import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('rate limits', () => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await startTestRuntime({ env: { DBOPS_RATE_LIMIT: '6', DBOPS_RATE_LIMIT_WINDOW_SECONDS: '3600' } });
  });
  afterAll(() => t.close());

  it("shares one budget across a user's API keys and JWT sessions and answers 429 with Retry-After", async () => {
    const jwt = await t.jwt('frank');
    const key = await t.apiKey('frank'); // 1 request
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/billing/balance', { jwt })).status);
    for (let i = 0; i < 2; i++) statuses.push((await t.request('GET', '/billing/balance', { apiKey: key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const limited = await t.request('GET', '/billing/balance', { apiKey: key });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ success: false, data: null, error: { code: 'RATE_LIMITED' } });
    expect((await t.request('GET', '/billing/balance', { jwt })).status).toBe(429);
  });

  it('does not limit other users', async () => {
    expect((await t.request('GET', '/billing/balance', { jwt: await t.jwt('grace') })).status).toBe(200);
  });

  it('does not limit the health check', async () => {
    expect((await t.request('GET', '/health')).status).toBe(200);
  });
});
