import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection, withSslDisabled } from '../support/connections';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const PASSWORD = 'Pw-sEcReT-9f3c1a77';

describe('connection registration', () => {
  let t: TestRuntime;
  let db: { url: string; name: string; drop(): Promise<void> };
  /** The scratch database reached as a dedicated login role with a recognisable password. */
  let appUrl: string;
  let alice: string;

  beforeAll(async () => {
    t = await startTestRuntime({ env: { DBOPS_CONNECT_TIMEOUT_MS: '1500' } });
    db = await createScratchDatabase('conn');
    const role = `app_${db.name}`;
    await sql(db.url, `CREATE ROLE ${role} LOGIN PASSWORD '${PASSWORD}'`);
    const u = new URL(db.url);
    u.username = role;
    u.password = PASSWORD;
    appUrl = u.toString();
    alice = await t.jwt('alice');
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('registers a reachable database and answers the spec Connection with 201', async () => {
    const res = await t.request('POST', '/connections', {
      jwt: alice,
      body: { name: 'orders db', db_type: 'postgresql_local', connection_string: withSslDisabled(appUrl) },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.error).toBeNull();
    const c = res.body.data;
    expect(Object.keys(c).sort()).toEqual(['created_at', 'database_name', 'db_type', 'host', 'id', 'is_active', 'last_introspected_at', 'name', 'port']);
    const u = new URL(appUrl);
    expect(c).toMatchObject({
      name: 'orders db',
      db_type: 'postgresql_local',
      host: u.hostname,
      port: Number(u.port),
      database_name: db.name,
      is_active: true,
      last_introspected_at: null,
    });
    expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
    expect(res.text).not.toContain(PASSWORD);
  });

  it('accepts postgres:// and an API key', async () => {
    const key = await t.apiKey('alice');
    const res = await t.request('POST', '/connections', {
      apiKey: key,
      body: { name: 'via key', db_type: 'postgresql', connection_string: withSslDisabled(appUrl).replace(/^postgresql:/, 'postgres:') },
    });
    expect(res.status).toBe(201);
  });

  it('reports a wrong password as auth failure without echoing any password', async () => {
    const wrong = new URL(appUrl);
    wrong.password = 'not-the-Pw-xyz';
    const res = await t.request('POST', '/connections', {
      jwt: alice,
      body: { name: 'x', db_type: 'postgresql_local', connection_string: withSslDisabled(wrong.toString()) },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONNECTION_FAILED');
    expect(res.body.error.details.reason).toBe('auth_failed');
    expect(res.body.error.message).toMatch(/authentication failed/i);
    expect(res.text).not.toContain('not-the-Pw-xyz');
  });

  it('reports a missing database by name', async () => {
    const u = new URL(appUrl);
    u.pathname = '/no_such_db_here';
    const res = await t.request('POST', '/connections', {
      jwt: alice,
      body: { name: 'x', db_type: 'postgresql_local', connection_string: withSslDisabled(u.toString()) },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.reason).toBe('database_not_found');
    expect(res.body.error.message).toContain('no_such_db_here');
  });

  it('reports a closed port as host unreachable', async () => {
    const port = await closedPort();
    const res = await t.request('POST', '/connections', {
      jwt: alice,
      body: { name: 'x', db_type: 'postgresql_local', connection_string: `postgresql://u:${PASSWORD}@127.0.0.1:${port}/db?sslmode=disable` },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.reason).toBe('host_unreachable');
    expect(res.body.error.message).toMatch(/unreachable/i);
    expect(res.text).not.toContain(PASSWORD);
  });

  it('reports a server that never answers as a timeout', async () => {
    const silent = await silentServer();
    try {
      const res = await t.request('POST', '/connections', {
        jwt: alice,
        body: { name: 'x', db_type: 'postgresql_local', connection_string: `postgresql://u:${PASSWORD}@127.0.0.1:${silent.port}/db?sslmode=disable` },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.reason).toBe('timeout');
      expect(res.body.error.message).toMatch(/timed out/i);
    } finally {
      silent.server.close();
    }
  });

  it('with sslmode=require (the default) refuses a server that does not offer SSL, and says so', async () => {
    const noMode = new URL(appUrl);
    noMode.search = '';
    for (const cs of [noMode.toString(), `${noMode.toString()}?sslmode=require`]) {
      const res = await t.request('POST', '/connections', { jwt: alice, body: { name: 'x', db_type: 'postgresql_local', connection_string: cs } });
      expect(res.status).toBe(422);
      expect(res.body.error.details.reason).toBe('ssl_not_supported');
      expect(res.body.error.message).toMatch(/SSL/);
      expect(res.text).not.toContain(PASSWORD);
    }
  });

  it('with sslmode=prefer falls back to plain text when the server has no SSL', async () => {
    const u = new URL(appUrl);
    u.search = '?sslmode=prefer';
    const res = await t.request('POST', '/connections', { jwt: alice, body: { name: 'prefer', db_type: 'postgresql_local', connection_string: u.toString() } });
    expect(res.status).toBe(201);
  });

  it.each([
    ['a mysql URL', 'mysql://u:p@h/db', /postgresql:\/\//],
    ['an unknown sslmode', 'postgresql://u:SeCrEtXyZ@h/db?sslmode=verify-full', /sslmode/],
    ['no host', 'postgresql://u:SeCrEtXyZ@/db', /host|URL/],
    ['no user', 'postgresql://h:5432/db', /user/],
    ['a bad port', 'postgresql://u:SeCrEtXyZ@h:99999/db', /port|URL/],
  ])('rejects %s with the spec 422 body and a masked input', async (_label, cs, msg) => {
    const res = await t.request('POST', '/connections', { jwt: alice, body: { name: 'x', db_type: 'postgresql_local', connection_string: cs } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'connection_string']);
    expect(res.body.detail[0].msg).toMatch(msg);
    expect(res.text).not.toContain('SeCrEtXyZ');
  });

  it.each([
    ['a missing name', { db_type: 'postgresql', connection_string: 'postgresql://u:p@h/db' }, ['body', 'name'], 'missing'],
    ['an empty name', { name: '', db_type: 'postgresql', connection_string: 'postgresql://u:p@h/db' }, ['body', 'name'], 'string_too_short'],
    ['a 201-character name', { name: 'n'.repeat(201), db_type: 'postgresql', connection_string: 'postgresql://u:p@h/db' }, ['body', 'name'], 'string_too_long'],
    ['an unknown db_type', { name: 'x', db_type: 'mysql', connection_string: 'postgresql://u:p@h/db' }, ['body', 'db_type'], 'enum'],
    ['a missing connection_string', { name: 'x', db_type: 'postgresql' }, ['body', 'connection_string'], 'missing'],
  ])('rejects %s with 422', async (_label, body, loc, type) => {
    const res = await t.request('POST', '/connections', { jwt: alice, body });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(expect.objectContaining({ loc, type }));
  });

  it('accepts every db_type of the spec', async () => {
    for (const dbType of ['provider_a', 'postgresql_cloud_a', 'postgres_cloud_b', 'postgresql_local', 'postgresql']) {
      const c = await registerConnection(t, 'carol', appUrl, { dbType });
      expect(c.db_type).toBe(dbType);
    }
  });

  it('is free: no credits are charged', async () => {
    const before = await t.request('GET', '/billing/balance', { jwt: await t.jwt('dave') });
    await registerConnection(t, 'dave', appUrl);
    const after = await t.request('GET', '/billing/balance', { jwt: await t.jwt('dave') });
    expect(after.body.data.balance).toBe(before.body.data.balance);
  });
});

describe('encryption at rest', () => {
  it('leaves no plaintext password in the state database or any file under DBOPS_HOME', async () => {
    const db = await createScratchDatabase('enc');
    const role = `enc_${db.name}`;
    const password = 'Zq7-plaintext-canary-41d9';
    await sql(db.url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const u = new URL(db.url);
    u.username = role;
    u.password = password;
    const t = await startTestRuntime({ runtime: { inMemoryState: false } });
    try {
      const c = await registerConnection(t, 'erin', u.toString());
      const row = await t.runtime.container.store.query('SELECT * FROM connections WHERE id = $1', [c.id]);
      expect(row.rows).toHaveLength(1);
      const dump = JSON.stringify(row.rows, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v));
      expect(dump).not.toContain(password);
      expect(dump).not.toContain(role); // the user name is inside the ciphertext too

      // The master key file is private to the service's OS user.
      const keyFile = path.join(t.runtime.home, 'keys', 'master.key');
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

      // Force PGlite to write everything out, then look through every byte under the home.
      await t.runtime.container.store.exec('CHECKPOINT');
      const files = await listFiles(t.runtime.home);
      expect(files.some((f) => f.includes(`${path.sep}state${path.sep}`))).toBe(true);
      const needles = [Buffer.from(password), Buffer.from(password, 'utf16le')];
      for (const f of files) {
        const bytes = await readFile(f);
        for (const n of needles) expect(bytes.includes(n), `${f} contains the password`).toBe(false);
      }
      // The record still decrypts to the exact string the user registered.
      const { loadConnectionTarget } = await import('@dbops/core/connections');
      const { domainDeps } = await import('@dbops/functions/runtime');
      const users = await t.runtime.container.store.query<{ user_id: string }>('SELECT user_id FROM connections WHERE id = $1', [c.id]);
      const target = await loadConnectionTarget(domainDeps(t.runtime.container), users.rows[0]!.user_id, c.id);
      expect(target.connectionString).toBe(withSslDisabled(u.toString()));
    } finally {
      await t.close();
      await db.drop();
    }
    // On-disk PGlite runs initdb (seconds, more on a loaded machine).
  }, 180_000);
});

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A TCP server that accepts connections and never says a word. */
function silentServer(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.on('error', () => undefined));
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}
