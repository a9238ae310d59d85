import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql, targetServerUrl } from '../../../../../test/support/scratch-database';
import { sandboxOnText } from '../../../../../test/support/sandbox-on-text';
import { buildSnapshot } from '../snapshot-builder';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { dropOrphans } from './server-run-identity';
import type { SandboxServerOptions } from './server-sandbox';

/**
 * A role per run on a configured sandbox server (issue #35): what one user's migration does to
 * its role or to other sessions reaches no other analysis. The test server stands in for the
 * sandbox server, through roles of this file: `sbx` with CREATEDB and CREATEROLE (the setup the
 * docs recommend), `sbxdb` with CREATEDB only (the shared-role fallback), and the server's
 * superuser for the dblink case (only a superuser installs dblink in the clone).
 */
const suffix = randomBytes(4).toString('hex');
const sbx = `sbx_${suffix}`;
const sbxdb = `sbxdb_${suffix}`;
const password = `pw-${randomBytes(8).toString('hex')}`;
const admin = targetServerUrl();
/** The test server's URL as `user`, or as its superuser for null. */
const urlAs = (user: string | null): string => {
  const u = new URL(admin);
  if (user) {
    u.username = user;
    u.password = password;
  }
  u.pathname = '/postgres';
  return u.toString();
};
const server = (user: string | null): SandboxServerOptions => ({ url: urlAs(user), mode: 'always' });

const accounts = (): SchemaSnapshot => buildSnapshot([{ name: 'accounts', columns: ['id bigint not null', 'name text'], primaryKey: ['id'] }]);
const sandbox = (text: string, user: string | null = sbx, snapshot = accounts()) => sandboxOnText(snapshot, text, { server: server(user), timeoutMs: 20_000 });

/** Names of what a dead process left: a run role and its database, two hours old, in the run formats. */
const old = `${(Date.now() - 2 * 3600_000).toString(36)}_${randomBytes(6).toString('hex')}`;
const orphanRole = `dbops_run_${old}`;
const orphanDb = `dbops_sandbox_${old}`;

/** Waits until the test server shows a session running SQL that contains `marker`. */
async function seenRunning(marker: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const rows = await sql(admin, `SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND position($1 in query) > 0`, [marker]);
    if (rows.length) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no session ran ${marker}`);
}

/** A run that holds its session for a few seconds with `marker` in its SQL. */
const sleeper = (marker: string) => sandbox(`DO $$ BEGIN PERFORM '${marker}'; PERFORM pg_sleep(3); END $$`);

describe('a role per run on the sandbox server', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await sql(admin, `CREATE ROLE ${sbx} LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`);
    await sql(admin, `CREATE ROLE ${sbxdb} LOGIN CREATEDB PASSWORD '${password}'`);
    // Left as a run of `sbx` leaves them: made by it (on 16+ it may only drop roles it made).
    await sql(urlAs(sbx), `CREATE ROLE ${orphanRole} LOGIN`);
    await sql(urlAs(sbx), `GRANT ${orphanRole} TO ${sbx}`);
    await sql(urlAs(sbx), `CREATE DATABASE ${orphanDb} OWNER ${orphanRole}`);
  });

  afterAll(async () => {
    for (const owner of [sbx, sbxdb]) {
      const dbs = await sql<{ datname: string }>(admin, `SELECT datname FROM pg_database WHERE pg_has_role($1, datdba, 'MEMBER')`, [owner]);
      for (const { datname } of dbs) await sql(admin, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await sql(admin, `DROP DATABASE IF EXISTS ${orphanDb} WITH (FORCE)`);
    const runRoles = await sql<{ rolname: string }>(
      admin,
      `SELECT r.rolname FROM pg_roles r JOIN pg_auth_members m ON m.roleid = r.oid WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = $1)`,
      [sbx],
    );
    for (const { rolname } of [...runRoles, { rolname: orphanRole }]) await sql(admin, `DROP ROLE IF EXISTS "${rolname}"`);
    await sql(admin, `DROP ROLE IF EXISTS ${sbx}`);
    await sql(admin, `DROP ROLE IF EXISTS ${sbxdb}`);
  });

  it("runs the migration as a role of its own, owner of the run's database and clone and of nothing else, dropped after the run with what a dead process left", async () => {
    const r = await sandbox(`DO $$ BEGIN RAISE EXCEPTION 'identity %', (
      SELECT json_build_object(
        'role', current_user, 'database', current_database(),
        'superuser', rolsuper, 'createrole', rolcreaterole, 'createdb', rolcreatedb, 'bypassrls', rolbypassrls, 'connlimit', rolconnlimit,
        'member_of', (SELECT count(*) FROM pg_auth_members WHERE member = current_user::regrole),
        'owns_database', (SELECT pg_get_userbyid(datdba) = current_user FROM pg_database WHERE datname = current_database()),
        'public_connect', has_database_privilege('public', current_database(), 'CONNECT'),
        'public_temp', has_database_privilege('public', current_database(), 'TEMPORARY'),
        'owns_tables', (SELECT bool_and(tableowner = current_user) FROM pg_tables WHERE schemaname = 'public'),
        'may_configured', pg_has_role(current_user, '${sbx}', 'USAGE'))
      FROM pg_roles WHERE rolname = current_user); END $$`);
    const identity = JSON.parse(/identity (\{.*\})/.exec(r.migration_error ?? '')?.[1] ?? 'null') as Record<string, unknown> | null;
    expect(identity, r.migration_error ?? '').toMatchObject({
      role: expect.stringMatching(/^dbops_run_[0-9a-z]+_[0-9a-f]{12}$/),
      database: expect.stringMatching(/^dbops_sandbox_/),
      superuser: false,
      createrole: false,
      createdb: false,
      bypassrls: false,
      connlimit: 3,
      member_of: 0,
      owns_database: true,
      public_connect: false,
      public_temp: false,
      owns_tables: true,
      may_configured: false,
    });
    // Gone after the run: its role and database.
    expect(await sql(admin, `SELECT rolname FROM pg_roles WHERE rolname = $1`, [identity!.role])).toEqual([]);
    expect(await sql(admin, `SELECT datname FROM pg_database WHERE datname = $1`, [identity!.database])).toEqual([]);
    // And a run's sweep, made as `sbx`, drops the role and database a dead process left (called
    // here directly: the sweep's throttle is per process, and a test worker runs many files).
    const sweeper = new pg.Client({ connectionString: urlAs(sbx) });
    await sweeper.connect();
    try {
      await dropOrphans(sweeper, { force: true });
    } finally {
      await sweeper.end();
    }
    expect(await sql(admin, `SELECT rolname FROM pg_roles WHERE rolname = $1`, [orphanRole])).toEqual([]);
    expect(await sql(admin, `SELECT datname FROM pg_database WHERE datname = $1`, [orphanDb])).toEqual([]);
  });

  it("a DO block's ALTER ROLE CURRENT_USER (read-only default, password, settings) reaches neither the next analysis nor the configured role", async () => {
    await sandbox(`DO $$ BEGIN EXECUTE 'ALTER ROLE CURRENT_USER SET default_transaction_read_only = on'; END $$`);
    await sandbox(`DO $$ BEGIN EXECUTE format('ALTER ROLE %I PASSWORD %L', current_user, 'owned-by-a'); END $$`);
    await sandbox(`DO $$ BEGIN ALTER ROLE CURRENT_USER SET check_function_bodies = off; END $$`);
    const next = await sandbox('ALTER TABLE accounts ADD COLUMN note text');
    expect(next.migration_error).toBeNull();
    expect(next.passed).toBe(true);
    // A broken function still fails: check_function_bodies = off did not carry over.
    const broken = await sandbox('CREATE FUNCTION broken() RETURNS int LANGUAGE sql AS $$ SELECT nope FROM missing_table $$');
    expect(broken.migration_error).toMatch(/missing_table/);
    expect(await sql(admin, `SELECT setconfig FROM pg_db_role_setting WHERE setrole = (SELECT oid FROM pg_roles WHERE rolname = $1)`, [sbx])).toEqual([]);
  });

  it("a migration reading pg_stat_activity while another analysis runs sees none of that run's SQL", async () => {
    const marker = `marker-${randomBytes(4).toString('hex')}`;
    const other = sleeper(marker);
    await seenRunning(marker);
    const spy = await sandbox(`DO $$
DECLARE q text;
BEGIN
  FOR i IN 1..20 LOOP
    PERFORM pg_stat_clear_snapshot();
    SELECT string_agg(query, ' | ') INTO q FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%marker-%';
    EXIT WHEN q IS NOT NULL;
    PERFORM pg_sleep(0.1);
  END LOOP;
  RAISE EXCEPTION 'seen: %', coalesce(q, 'nothing');
END $$`);
    expect(spy.migration_error).toMatch(/seen: nothing/);
    expect(spy.migration_error).not.toContain(marker);
    expect((await other).passed).toBe(true);
  });

  it("a migration can neither terminate another run's backend nor ALTER ROLE another run's role", async () => {
    const marker = `victim-${randomBytes(4).toString('hex')}`;
    const victim = sleeper(marker);
    await seenRunning(marker);
    const killer = await sandbox(`DO $$
DECLARE r record; ended int := 0; refused int := 0; altered int := 0; alter_refused int := 0;
BEGIN
  PERFORM pg_stat_clear_snapshot();
  FOR r IN SELECT pid, usename FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname LIKE 'dbops\\_sandbox\\_%' LOOP
    BEGIN
      EXECUTE format('ALTER ROLE %I SET default_transaction_read_only = on', r.usename);
      altered := altered + 1;
    EXCEPTION WHEN insufficient_privilege THEN alter_refused := alter_refused + 1;
    END;
    BEGIN
      IF pg_terminate_backend(r.pid) THEN ended := ended + 1; END IF;
    EXCEPTION WHEN insufficient_privilege THEN refused := refused + 1;
    END;
  END LOOP;
  RAISE EXCEPTION 'ended % refused % altered % alter_refused %', ended, refused, altered, alter_refused;
END $$`);
    expect(killer.migration_error).toMatch(/ended 0 refused [1-9]\d* altered 0 alter_refused [1-9]/);
    const survived = await victim;
    expect(survived.migration_error).toBeNull();
    expect(survived.passed).toBe(true);
  });

  it('keeps working as the configured role when it cannot create roles, and says so', async () => {
    const r = await sandbox('ALTER TABLE accounts ADD COLUMN note text', sbxdb);
    expect(r.migration_error).toBeNull();
    expect(r.passed).toBe(true);
    expect(r.validation_results.at(-1)).toEqual({
      check: 'shared_role',
      passed: true,
      detail: expect.stringMatching(/^the sandbox server's role cannot create roles \(it needs CREATEROLE and CREATEDB, or superuser\)/),
    });
  });

  // Last in the file: the superuser's orphan sweep (at most every 5 minutes per process) has
  // already run as `sbx`, so it cannot drop what other test files leave on the server.
  it('dblink_exec inside the clone is refused although the target has dblink', async (ctx) => {
    const [available] = await sql(admin, `SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'dblink'`);
    if ((available as { n: number }).n === 0) ctx.skip('the test server has no dblink extension');
    const live = await createScratchDatabase('sbxlive');
    try {
      await sql(live.url, `CREATE TABLE prices (id int PRIMARY KEY, price numeric); INSERT INTO prices VALUES (1, 10)`);
      const u = new URL(admin);
      const conn = `host=${u.hostname} port=${u.port} user=${decodeURIComponent(u.username)} password=${decodeURIComponent(u.password)} dbname=${live.name}`;
      const snapshot = accounts();
      snapshot.extensions.push({ name: 'dblink', version: '1.2', schema: 'public' });
      const r = await sandbox(`DO $$ BEGIN PERFORM dblink_exec('${conn}', 'UPDATE prices SET price = 0.01 WHERE id = 1'); END $$`, null, snapshot);
      // dblink is in the clone, and the run's role may not call it.
      expect(r.validation_results[0]).toMatchObject({ check: 'schema_cloned', passed: true });
      expect(r.passed).toBe(false);
      expect(r.migration_error).toMatch(/permission denied for function dblink_exec/);
      expect(await sql(live.url, 'SELECT price::text FROM prices')).toEqual([{ price: '10' }]);
    } finally {
      await live.drop();
    }
  });
});
