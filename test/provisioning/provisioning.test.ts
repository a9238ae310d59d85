import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { connectAs, startProvisioningRuntime } from '../support/provisioning';
import type { TestRuntime } from '../support/test-runtime';

let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let t: TestRuntime;

beforeAll(async () => {
  env = await startProvisioningRuntime();
  t = env.t;
}, 60_000);
afterAll(async () => env?.close());

const schemaExists = async (name: string) => (await sql(env.adminUrl, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [name])).length > 0;
const roleExists = async (name: string) => (await sql(env.adminUrl, 'SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).length > 0;

describe('managed databases', () => {
  it('provision -> connect as the tenant -> create a table -> list -> delete', async () => {
    const jwt = await t.jwt('alice');
    const created = await t.request('POST', '/provision', { jwt, body: { name: 'orders db' } });
    expect(created.status).toBe(201);
    const db = created.body.data;
    expect(db).toMatchObject({ name: 'orders db', status: 'active' });
    expect(db.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(db.schema_name).toMatch(/^dbops_[0-9a-f]{32}$/);
    expect(db.connection_string).toMatch(/^postgresql:\/\//);
    expect(Date.parse(db.created_at)).not.toBeNaN();

    // The tenant role lands in its own schema by default and can create and use tables there.
    const tenant = await connectAs(db.connection_string);
    try {
      expect((await tenant.query('SHOW search_path')).rows[0].search_path).toBe(db.schema_name);
      await tenant.query('CREATE TABLE orders (id int PRIMARY KEY, total numeric)');
      await tenant.query("INSERT INTO orders VALUES (1, '9.50')");
      expect((await tenant.query('SELECT total FROM orders')).rows).toEqual([{ total: '9.50' }]);
      const where = await tenant.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'orders'");
      expect(where.rows).toEqual([{ table_schema: db.schema_name }]);
    } finally {
      await tenant.end();
    }

    // The auto-registered connection works through the service itself (introspection sees the table).
    const conn = await t.request('GET', `/connections/${db.connection_id}`, { jwt });
    expect(conn.status).toBe(200);
    expect(conn.body.data).toMatchObject({ name: 'orders db', db_type: 'postgresql', is_active: true });
    expect(conn.text).not.toContain(db.connection_string.split('@')[0]!.split(':')[2]);

    const list = await t.request('GET', '/provision', { jwt });
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(1);
    expect(list.body.data.limit).toBe(3);
    expect(list.body.data.databases).toEqual([
      { id: db.id, connection_id: db.connection_id, name: 'orders db', schema_name: db.schema_name, status: 'active', created_at: db.created_at },
    ]);
    // The connection string is shown once, at creation only.
    expect(list.text).not.toContain('connection_string');

    // Another user sees none of it and cannot delete it.
    const bobJwt = await t.jwt('bob');
    expect((await t.request('GET', '/provision', { jwt: bobJwt })).body.data).toEqual({ databases: [], count: 0, limit: 3 });
    const foreign = await t.request('DELETE', `/provision/${db.id}`, { jwt: bobJwt });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect(await schemaExists(db.schema_name)).toBe(true);

    // Deletion terminates an open session of the tenant, drops schema and role, deactivates the connection.
    const open = await connectAs(db.connection_string);
    const closed = new Promise<void>((resolve) => open.on('end', () => resolve()));
    const deleted = await t.request('DELETE', `/provision/${db.id}`, { jwt });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: db.id, status: 'deleted' });
    await closed;
    expect(await schemaExists(db.schema_name)).toBe(false);
    expect(await roleExists(db.schema_name)).toBe(false);
    expect((await t.request('GET', `/connections/${db.connection_id}`, { jwt })).body.data.is_active).toBe(false);
    expect((await t.request('GET', '/provision', { jwt })).body.data.count).toBe(0);
    await expect(connectAs(db.connection_string)).rejects.toThrow();
    expect((await t.request('DELETE', `/provision/${db.id}`, { jwt })).status).toBe(404);
  }, 60_000);

  it('works with an API key too, and validates the name', async () => {
    const apiKey = await t.apiKey('carol');
    const empty = await t.request('POST', '/provision', { apiKey, body: { name: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'name']);
    const long = await t.request('POST', '/provision', { apiKey, body: { name: 'x'.repeat(201) } });
    expect(long.status).toBe(422);
    expect((await t.request('DELETE', '/provision/not-a-uuid', { apiKey })).status).toBe(422);
    expect((await t.request('DELETE', '/provision/00000000-0000-4000-8000-000000000000', { apiKey })).status).toBe(404);
    expect((await t.request('GET', '/provision')).status).toBe(401);
    const created = await t.request('POST', '/provision', { apiKey, body: { name: 'x'.repeat(200) } });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-credits-remaining')).toBeNull();
    expect((await t.request('DELETE', `/provision/${created.body.data.id}`, { apiKey })).status).toBe(200);
  }, 60_000);

  it('allows 3 per user; the fourth gets 409 PROVISION_LIMIT_REACHED, and deleting frees a slot', async () => {
    const jwt = await t.jwt('dave');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await t.request('POST', '/provision', { jwt, body: { name: `db ${n}` } });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    const fourth = await t.request('POST', '/provision', { jwt, body: { name: 'db 4' } });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toMatchObject({ success: false, data: null, error: { code: 'PROVISION_LIMIT_REACHED', details: { limit: 3 } } });
    // The refused request left nothing on the shared instance.
    const tenants = await sql(env.adminUrl, "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'dbops\\_%'");
    const list = await t.request('GET', '/provision', { jwt });
    expect(list.body.data.count).toBe(3);
    // Another user is not affected by dave's limit.
    const other = await t.request('POST', '/provision', { jwt: await t.jwt('erin'), body: { name: 'mine' } });
    expect(other.status).toBe(201);
    expect((await sql(env.adminUrl, "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'dbops\\_%'"))[0]!.n).toBe(Number(tenants[0]!.n) + 1);

    expect((await t.request('DELETE', `/provision/${ids[0]}`, { jwt })).status).toBe(200);
    expect((await t.request('POST', '/provision', { jwt, body: { name: 'db 4' } })).status).toBe(201);
  }, 90_000);

  it('holds the limit under concurrent requests: 5 at once give exactly 3 databases', async () => {
    const jwt = await t.jwt('hasty');
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => t.request('POST', '/provision', { jwt, body: { name: `race ${n}` } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409]);
    expect((await t.request('GET', '/provision', { jwt })).body.data.count).toBe(3);
  }, 90_000);
});
