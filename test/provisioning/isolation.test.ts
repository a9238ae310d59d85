import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { connectAs, sqlState, startProvisioningRuntime } from '../support/provisioning';

let env: Awaited<ReturnType<typeof startProvisioningRuntime>>;
let a: pg.Client;
let b: pg.Client;
let schemaA: string;
let schemaB: string;

const INSUFFICIENT_PRIVILEGE = '42501';

beforeAll(async () => {
  env = await startProvisioningRuntime();
  const create = async (user: string) => {
    const res = await env.t.request('POST', '/provision', { jwt: await env.t.jwt(user), body: { name: `${user} db` } });
    if (res.status !== 201) throw new Error(res.text);
    return res.body.data as { schema_name: string; connection_string: string };
  };
  const [dbA, dbB] = [await create('tenant-a'), await create('tenant-b')];
  schemaA = dbA.schema_name;
  schemaB = dbB.schema_name;
  // The admin puts a table into public, as an operator might.
  await sql(env.adminUrl, 'CREATE TABLE public.operator_notes (note text)');
  a = await connectAs(dbA.connection_string);
  b = await connectAs(dbB.connection_string);
  await b.query('CREATE TABLE secrets (id int, value text)');
  await b.query("INSERT INTO secrets VALUES (1, 'b-only')");
  await b.query('ANALYZE secrets');
}, 60_000);

afterAll(async () => {
  await a?.end();
  await b?.end();
  await env?.close();
});

describe("tenants cannot reach each other's schemas", () => {
  it("A cannot read, write or create in B's schema", async () => {
    expect(await sqlState(a.query(`SELECT * FROM ${schemaB}.secrets`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`INSERT INTO ${schemaB}.secrets VALUES (2, 'from a')`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`UPDATE ${schemaB}.secrets SET value = 'x'`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`DELETE FROM ${schemaB}.secrets`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`CREATE TABLE ${schemaB}.planted (id int)`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`DROP SCHEMA ${schemaB} CASCADE`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query(`SET ROLE ${schemaB}`))).toBe(INSUFFICIENT_PRIVILEGE);
    // B's data is untouched.
    expect((await b.query('SELECT value FROM secrets')).rows).toEqual([{ value: 'b-only' }]);
  });

  it("A cannot list B's tables or columns through information_schema, nor see B's statistics", async () => {
    const tables = await a.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schemaB]);
    expect(tables.rows).toEqual([]);
    const columns = await a.query('SELECT column_name FROM information_schema.columns WHERE table_schema = $1', [schemaB]);
    expect(columns.rows).toEqual([]);
    const schemata = await a.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = $1', [schemaB]);
    expect(schemata.rows).toEqual([]);
    expect((await a.query('SELECT 1 FROM pg_stats WHERE schemaname = $1', [schemaB])).rows).toEqual([]);
    expect(await sqlState(a.query('SELECT * FROM pg_statistic'))).toBe(INSUFFICIENT_PRIVILEGE);
    // B itself does see its own table (the check above is not vacuous).
    expect((await b.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schemaB])).rows).toEqual([{ table_name: 'secrets' }]);
  });

  it('A cannot list, read, write or create in public', async () => {
    expect(await sqlState(a.query('CREATE TABLE public.squat (id int)'))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query('SELECT * FROM public.operator_notes'))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query("INSERT INTO public.operator_notes VALUES ('x')"))).toBe(INSUFFICIENT_PRIVILEGE);
    expect((await a.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows).toEqual([]);
    // An unqualified CREATE goes to A's own schema, not public.
    await a.query('CREATE TABLE mine (id int)');
    expect((await a.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'mine'")).rows).toEqual([{ table_schema: schemaA }]);
  });

  it("A cannot read other roles' passwords from the catalog", async () => {
    expect(await sqlState(a.query('SELECT rolpassword FROM pg_authid'))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlState(a.query('SELECT passwd FROM pg_shadow'))).toBe(INSUFFICIENT_PRIVILEGE);
    const masked = await a.query('SELECT DISTINCT rolpassword FROM pg_roles WHERE rolname = $1', [schemaB]);
    expect(masked.rows).toEqual([{ rolpassword: '********' }]);
    // No role attribute lets a tenant escape.
    const attrs = await a.query('SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication FROM pg_roles WHERE rolname = current_user');
    expect(attrs.rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false, rolreplication: false }]);
  });

  it('the password is stored as a SCRAM verifier, never in plain text', async () => {
    const rows = await sql<{ rolpassword: string }>(env.adminUrl, 'SELECT rolpassword FROM pg_authid WHERE rolname = $1', [schemaA]);
    expect(rows[0]!.rolpassword).toMatch(/^SCRAM-SHA-256\$4096:/);
  });
});
