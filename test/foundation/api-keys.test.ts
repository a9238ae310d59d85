import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('API keys', () => {
  let t: TestRuntime;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await startTestRuntime();
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
  });
  afterAll(() => t.close());

  it('creates a key with 201, shows the raw key once and lists only its prefix', async () => {
    const created = await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    const key = created.body.data;
    expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'key', 'name', 'prefix']);
    expect(key.key).toMatch(/^dbo_[A-Za-z0-9_-]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(key.key.length / 2);
    expect(new Date(key.created_at).toISOString()).toBe(key.created_at);

    const listed = await t.request('GET', '/api-keys', { jwt: alice });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual({ id: key.id, name: 'ci', prefix: key.prefix, created_at: key.created_at });
    expect(listed.text).not.toContain(key.key);
  });

  it('stores only a hash of the key', async () => {
    const created = await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'hash check' } });
    const raw = created.body.data.key as string;
    const rows = await t.runtime.container.store.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [created.body.data.id]);
    expect(JSON.stringify(rows.rows)).not.toContain(raw.slice(12));
  });

  it.each([
    ['an empty name', '', 'string_too_short'],
    ['a name of 201 characters', 'n'.repeat(201), 'string_too_long'],
    ['a number', 42, 'string_type'],
  ])('rejects %s with 422', async (_label, name, type) => {
    const res = await t.request('POST', '/api-keys', { jwt: alice, body: { name } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type, input: name })]);
  });

  it('accepts names of 1 and 200 characters', async () => {
    expect((await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'a' } })).status).toBe(201);
    expect((await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'b'.repeat(200) } })).status).toBe(201);
  });

  it('revokes a key so that it fails at once and leaves the listing', async () => {
    const created = await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'short-lived' } });
    const { id, key } = created.body.data;
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(200);
    const revoked = await t.request('DELETE', `/api-keys/${id}`, { jwt: alice });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, data: { id, revoked: true }, error: null });
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(403);
    const listed = await t.request('GET', '/api-keys', { jwt: alice });
    expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await t.request('DELETE', `/api-keys/${id}`, { jwt: alice })).status).toBe(404);
  });

  it("hides other users' keys: listing and revoking another user's key gives nothing and 404", async () => {
    const created = await t.request('POST', '/api-keys', { jwt: alice, body: { name: 'alice only' } });
    const { id, key } = created.body.data;
    const bobs = await t.request('GET', '/api-keys', { jwt: bob });
    expect(bobs.body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    const res = await t.request('DELETE', `/api-keys/${id}`, { jwt: bob });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await t.request('GET', '/billing/balance', { apiKey: key })).status).toBe(200);
  });

  it("an API key acts as its owner: it sees the owner's account, not another's", async () => {
    const key = await t.apiKey('erin');
    const viaKey = await t.request('GET', '/billing/usage', { apiKey: key });
    const viaJwt = await t.request('GET', '/billing/usage', { jwt: await t.jwt('erin') });
    expect(viaKey.body).toEqual(viaJwt.body);
  });
});
