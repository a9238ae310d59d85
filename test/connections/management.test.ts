import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection, withSslDisabled } from '../support/connections';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('connection list, read, update and deactivation', () => {
  let t: TestRuntime;
  let db: { url: string; name: string; drop(): Promise<void> };
  let other: { url: string; name: string; drop(): Promise<void> };
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await startTestRuntime();
    db = await createScratchDatabase('mgmt');
    other = await createScratchDatabase('mgmt2');
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
    await other.drop();
  });

  it('lists the caller’s connections, never with a connection string', async () => {
    const a = await registerConnection(t, 'alice', db.url, { name: 'first' });
    const b = await registerConnection(t, 'alice', db.url, { name: 'second' });
    const res = await t.request('GET', '/connections', { jwt: alice });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(res.body.data.find((c: { id: string }) => c.id === a.id)).toEqual(a);
    expect(res.text).not.toMatch(/postgres(ql)?:\/\//);
    expect((await t.request('GET', '/connections', { jwt: bob })).body.data).toEqual([]);
  });

  it('reads one connection and gives 404 to another user and for an unknown id', async () => {
    const a = await registerConnection(t, 'alice', db.url);
    const res = await t.request('GET', `/connections/${a.id}`, { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(a);
    const theirs = await t.request('GET', `/connections/${a.id}`, { jwt: bob });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
    expect((await t.request('GET', '/connections/00000000-0000-4000-8000-000000000000', { jwt: alice })).status).toBe(404);
    const bad = await t.request('GET', '/connections/not-a-uuid', { jwt: alice });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'connection_id'], type: 'uuid_parsing' });
  });

  it('renames a connection', async () => {
    const a = await registerConnection(t, 'alice', db.url, { name: 'old' });
    const res = await t.request('PATCH', `/connections/${a.id}`, { jwt: alice, body: { name: 'new name' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...a, name: 'new name' });
    expect((await t.request('GET', `/connections/${a.id}`, { jwt: alice })).body.data.name).toBe('new name');
  });

  it('re-points a connection: checked, re-encrypted, host fields follow', async () => {
    const a = await registerConnection(t, 'alice', db.url);
    const before = await t.runtime.container.store.query<{ secret_ciphertext: Uint8Array }>('SELECT secret_ciphertext FROM connections WHERE id = $1', [a.id]);
    const res = await t.request('PATCH', `/connections/${a.id}`, { jwt: alice, body: { connection_string: withSslDisabled(other.url) } });
    expect(res.status).toBe(200);
    expect(res.body.data.database_name).toBe(other.name);
    const after = await t.runtime.container.store.query<{ secret_ciphertext: Uint8Array }>('SELECT secret_ciphertext FROM connections WHERE id = $1', [a.id]);
    expect(Buffer.from(after.rows[0]!.secret_ciphertext).equals(Buffer.from(before.rows[0]!.secret_ciphertext))).toBe(false);
  });

  it('refuses an unreachable new connection string and keeps the old one', async () => {
    const a = await registerConnection(t, 'alice', db.url);
    const wrong = new URL(db.url);
    wrong.password = 'definitely-wrong-Pw';
    const res = await t.request('PATCH', `/connections/${a.id}`, { jwt: alice, body: { connection_string: withSslDisabled(wrong.toString()) } });
    expect(res.status).toBe(422);
    expect(res.body.error.details.reason).toBe('auth_failed');
    expect(res.text).not.toContain('definitely-wrong-Pw');
    expect((await t.request('GET', `/connections/${a.id}`, { jwt: alice })).body.data.database_name).toBe(db.name);
  });

  it('validates the PATCH body and hides other users’ connections', async () => {
    const a = await registerConnection(t, 'alice', db.url);
    const bad = await t.request('PATCH', `/connections/${a.id}`, { jwt: alice, body: { name: '' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'name']);
    const theirs = await t.request('PATCH', `/connections/${a.id}`, { jwt: bob, body: { name: 'stolen' } });
    expect(theirs.status).toBe(404);
    expect((await t.request('GET', `/connections/${a.id}`, { jwt: alice })).body.data.name).not.toBe('stolen');
  });

  it('deactivates a connection: 404 for another user, idempotent, gone from the default listing', async () => {
    const a = await registerConnection(t, 'alice', db.url);
    expect((await t.request('DELETE', `/connections/${a.id}`, { jwt: bob })).status).toBe(404);
    const res = await t.request('DELETE', `/connections/${a.id}`, { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...a, is_active: false });
    expect((await t.request('DELETE', `/connections/${a.id}`, { jwt: alice })).status).toBe(200);

    const listed = await t.request('GET', '/connections', { jwt: alice });
    expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(a.id);
    const all = await t.request('GET', '/connections?include_inactive=true', { jwt: alice });
    expect(all.body.data.find((c: { id: string }) => c.id === a.id)?.is_active).toBe(false);
    expect((await t.request('GET', `/connections/${a.id}`, { jwt: alice })).body.data.is_active).toBe(false);

    const patch = await t.request('PATCH', `/connections/${a.id}`, { jwt: alice, body: { name: 'back' } });
    expect(patch.status).toBe(409);
    expect(patch.body.error.code).toBe('CONNECTION_INACTIVE');
    const introspect = await t.request('POST', `/connections/${a.id}/introspect`, { jwt: alice });
    expect(introspect.status).toBe(404);
  });
});

// These tests start extra runtimes (PGlite initdb each), which takes long on a loaded machine.
describe('host policy in cloud mode', () => {
  let t: TestRuntime;
  let db: { url: string; name: string; drop(): Promise<void> };

  beforeAll(async () => {
    t = await startTestRuntime({ env: { DBOPS_BLOCK_PRIVATE_HOSTS: 'true' } });
    db = await createScratchDatabase('cloud');
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['localhost by name', 'localhost'],
    ['the instance metadata address', '169.254.169.254'],
    ['a private 10/8 address', '10.1.2.3'],
    ['a private 192.168/16 address', '192.168.0.10'],
    ['IPv6 loopback', '[::1]'],
    ['an IPv4-mapped IPv6 loopback', '[::ffff:127.0.0.1]'],
  ])('rejects %s without connecting', async (_label, host) => {
    const res = await t.request('POST', '/connections', {
      jwt: await t.jwt('mallory'),
      body: { name: 'x', db_type: 'postgresql', connection_string: `postgresql://u:HiddenPw1@${host}:5432/db?sslmode=disable` },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONNECTION_REJECTED');
    expect(res.body.error.details.reason).toBe('host_not_allowed');
    expect(res.text).not.toContain('HiddenPw1');
  });

  it('is on by default in cloud mode and off locally', async () => {
    const local = await startTestRuntime();
    try {
      expect((await registerConnection(local, 'zoe', db.url)).is_active).toBe(true);
    } finally {
      await local.close();
    }
    const cloud = await startTestRuntime({ env: { DBOPS_MODE: 'cloud' } });
    try {
      const res = await cloud.request('POST', '/connections', {
        jwt: await cloud.jwt('zoe'),
        body: { name: 'x', db_type: 'postgresql', connection_string: withSslDisabled(db.url) },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('CONNECTION_REJECTED');
    } finally {
      await cloud.close();
    }
  }, 180_000);

  it('lets the allow-list through (by address and by CIDR)', async () => {
    for (const allowed of ['127.0.0.1', '127.0.0.0/8']) {
      const rt = await startTestRuntime({ env: { DBOPS_BLOCK_PRIVATE_HOSTS: 'true', DBOPS_ALLOWED_HOSTS: `db.example.com, ${allowed}` } });
      try {
        expect((await registerConnection(rt, 'zoe', db.url)).is_active).toBe(true);
      } finally {
        await rt.close();
      }
    }
  }, 180_000);
});
