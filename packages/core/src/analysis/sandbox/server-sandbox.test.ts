import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, targetServerUrl } from '../../../../../test/support/scratch-database';
import { buildSnapshot } from '../snapshot-builder';
import { shopSnapshot, tenantShopSnapshot } from '../test-schema';
import type { SchemaSnapshot } from '../../introspection/schema-snapshot';
import { freePort } from '../../../../local/src/free-port';
import { runSandbox } from './run-sandbox';
import { closeSandboxSpare } from './sandbox-pool';
import { extensionsPgliteLacks, type SandboxServerOptions } from './server-sandbox';
import { sandboxOnText } from '../../../../../test/support/sandbox-on-text';

const SLOW = 120_000;

/**
 * The test server as a sandbox server, through a role of its own with CREATEDB and CREATEROLE
 * but no superuser (the setup the docs recommend). Databases that role owns are exactly those
 * this file's sandbox runs created, whatever other test files do on the server meanwhile.
 */
const role = `sbx_${randomBytes(5).toString('hex')}`;
const password = `pw-${randomBytes(8).toString('hex')}`;
const admin = targetServerUrl();
const serverUrl = (() => {
  const u = new URL(admin);
  u.username = role;
  u.password = password;
  u.pathname = '/postgres';
  return u.toString();
})();
const server = (extra: Partial<SandboxServerOptions> = {}): SandboxServerOptions => ({ url: serverUrl, mode: 'always', ...extra });

const sandbox = sandboxOnText;

const withoutDuration = ({ duration_ms: _, phases: __, ...r }: Awaited<ReturnType<typeof runSandbox>> & { phases?: unknown }) => r;

/**
 * Databases the sandbox role owns now, itself or through the run roles it made (it is a member
 * of each): none once a run is over.
 */
const sandboxDatabases = async () =>
  (await sql<{ datname: string }>(admin, `SELECT datname FROM pg_database WHERE pg_has_role($1, datdba, 'MEMBER')`, [role])).map((r) => r.datname);

/** A table with a citext column: an extension the test server ships and the PGlite sandbox lacks. */
function citextSnapshot(): SchemaSnapshot {
  const s = buildSnapshot([{ name: 'users', columns: ['id bigint not null', 'email citext not null'], primaryKey: ['id'], unique: [['email']], rows: 1000 }]);
  s.extensions.push({ name: 'citext', version: '1.6', schema: 'public' });
  return s;
}

describe('runSandbox on a PostgreSQL sandbox server', () => {
  /** A sandbox database two hours old, as a process that died mid-run leaves behind. */
  const orphan = `dbops_sandbox_${(Date.now() - 2 * 3600_000).toString(36)}_0123456789ab`;

  beforeAll(async () => {
    await sql(admin, `CREATE ROLE ${role} LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`);
    await sql(admin, `CREATE DATABASE ${orphan} OWNER ${role}`);
  });

  afterAll(async () => {
    await closeSandboxSpare();
    for (const d of await sandboxDatabases()) await sql(admin, `DROP DATABASE IF EXISTS "${d}" WITH (FORCE)`);
    await sql(admin, `DROP ROLE IF EXISTS ${role}`);
  });

  it(
    'clones a schema using an extension PGlite lacks, which the PGlite sandbox cannot',
    async () => {
      const snapshot = citextSnapshot();
      const migration =
        'ALTER TABLE users ADD COLUMN nick citext; CREATE INDEX users_nick_idx ON users (nick); UPDATE users SET nick = upper(email) WHERE id = 1';
      expect(extensionsPgliteLacks(snapshot)).toEqual(['citext']);

      // PGlite alone (the version-matched embedded engine would clone it: see embedded-sandbox.test.ts).
      const local = await sandbox(snapshot, migration, { engine: 'pglite' });
      expect(local.passed).toBe(false);
      expect(local.validation_results[0]).toMatchObject({
        check: 'schema_cloned',
        passed: false,
        detail: expect.stringContaining('extension citext: extension "citext" is not available'),
      });

      // `extensions` mode picks the server for this snapshot, without trying PGlite first.
      expect(await sandboxDatabases()).toEqual([orphan]);
      const remote = await sandbox(snapshot, migration, { server: server({ mode: 'extensions' }) });
      expect(remote).toMatchObject({ passed: true, migration_applied: true, migration_error: null, tables_created: 1, rows_inserted: 3 });
      expect(remote.validation_results.map((v) => [v.check, v.passed])).toEqual([
        ['schema_cloned', true],
        ['synthetic_rows', true],
        ['migration_applied', true],
        ['object_exists', true],
        ['object_exists', true],
        ['row_counts_kept', true],
        ['indexes_valid', true],
      ]);
      // Its own database is gone, and the first run of the process swept the orphan away too.
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'creates an extension in the schema it was installed in, where the snapshot names its types',
    async () => {
      const snapshot = buildSnapshot([{ name: 'users', columns: ['id bigint not null', 'email ext.citext not null'], primaryKey: ['id'] }]);
      snapshot.tables[0]!.columns[1]!.udt_name = 'citext';
      snapshot.extensions.push({ name: 'citext', version: '1.6', schema: 'ext' });
      const r = await sandbox(snapshot, 'ALTER TABLE users ADD COLUMN nick ext.citext', { server: server({ mode: 'extensions' }) });
      expect(r).toMatchObject({ passed: true, migration_error: null, tables_created: 1, rows_inserted: 3 });
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'fills sandbox_result exactly as the PGlite sandbox does, passing or failing',
    async () => {
      const snapshot = shopSnapshot();
      const cases: [string, RegExp | null][] = [
        [
          'ALTER TABLE orders ADD COLUMN note text; CREATE INDEX CONCURRENTLY orders_note_idx ON orders (note); DELETE FROM customers WHERE id = 1; DROP INDEX orders_customer_id_idx',
          null,
        ],
        [
          'ALTER TABLE products ADD COLUMN weight int NOT NULL',
          /^Statement 0 \(ALTER_TABLE_ADD_COLUMN\) failed: column "weight" of relation "products" contains null values$/,
        ],
        // Accepted by the parser, rejected by PostgreSQL.
        [
          'ALTER TABLE orders ADD COLUMN note text; ALTER TABLE products ADD COLUMN code varchar(0)',
          /^Statement 1 \(ALTER_TABLE_ADD_COLUMN\) failed: length for type varchar must be at least 1$/,
        ],
        [
          "ALTER TABLE orders ALTER COLUMN total TYPE int USING 'x'",
          /^Statement 0 \(ALTER_TABLE_ALTER_COLUMN_TYPE\) failed: invalid input syntax for type integer: "x"$/,
        ],
      ];
      for (const [migration, error] of cases) {
        const local = await sandbox(snapshot, migration);
        const remote = await sandbox(snapshot, migration, { server: server() });
        expect(withoutDuration(remote), migration).toEqual(withoutDuration(local));
        expect(remote.passed).toBe(error === null);
        if (error) expect(remote.migration_error).toMatch(error);
        expect(await sandboxDatabases()).toEqual([]);
      }
    },
    SLOW,
  );

  it(
    "runs an unqualified migration under the snapshot's search path (a managed database's tenant schema)",
    async () => {
      const r = await sandbox(
        tenantShopSnapshot(),
        'ALTER TABLE orders ADD COLUMN note text; CREATE INDEX orders_note_idx ON orders (note); DROP TABLE shipments',
        { server: server() },
      );
      expect(r.migration_error).toBeNull();
      expect(r.passed).toBe(true);
      expect(r.validation_results.filter((v) => v.check.startsWith('object_')).map((v) => v.detail)).toEqual([
        'column tenant_x.orders.note exists after statement 0 (ALTER_TABLE_ADD_COLUMN)',
        'tenant_x.orders_note_idx exists after statement 1 (CREATE_INDEX)',
        'tenant_x.shipments is gone after statement 2 (DROP_TABLE)',
      ]);
    },
    SLOW,
  );

  it(
    'cancels a statement that outlives the budget on the server, then drops the database',
    async () => {
      const started = performance.now();
      const r = await sandbox(shopSnapshot(), 'ALTER TABLE orders ADD COLUMN note text; SELECT pg_sleep(60)', { server: server(), timeoutMs: 1500 });
      expect(r).toMatchObject({ passed: false, migration_applied: false, migration_error: 'sandbox timeout: exceeded 1500 ms in statement 1' });
      // statement_timeout cancelled it: the client's own deadline comes 5 s after the budget.
      expect(performance.now() - started).toBeLessThan(6_000);
      const sleeping = await sql(
        admin,
        `SELECT pid FROM pg_stat_activity WHERE (usename = $1 OR usename LIKE 'dbops\\_run\\_%') AND query LIKE '%pg_sleep(60)%'`,
        [role],
      );
      expect(sleeping).toEqual([]);
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'keeps server-wide statements away from the server and drops the roles a migration creates',
    async () => {
      const app = `app_${randomBytes(4).toString('hex')}`;
      // Run as written, ALTER ROLE would lock the sandbox role out of the server for every later analysis.
      const r = await sandbox(
        shopSnapshot(),
        `CREATE ROLE ${app}; GRANT SELECT ON products TO ${app}; ALTER ROLE ${role} CONNECTION LIMIT 0; ALTER DATABASE postgres SET work_mem = '1MB'`,
        { server: server() },
      );
      expect(r.migration_error).toBeNull();
      expect(r.passed).toBe(true);
      expect(await sql(admin, `SELECT rolname, rolconnlimit FROM pg_roles WHERE rolname IN ($1, $2)`, [app, role])).toEqual([
        { rolname: role, rolconnlimit: -1 },
      ]);
      expect(await sql(admin, `SELECT setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = 'postgres'`)).toEqual(
        [],
      );
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'falls back to the server when PGlite refuses an object the migration touches',
    async () => {
      // An index with an ICU collation PGlite's build lacks; no extension involved.
      const [icu] = await sql(admin, `SELECT count(*)::int AS n FROM pg_collation WHERE collname = 'en-US-x-icu'`);
      expect((icu as { n: number }).n).toBe(1);
      const snapshot = buildSnapshot([{ name: 'users', columns: ['id bigint not null', 'name text'], primaryKey: ['id'] }]);
      const users = snapshot.tables[0]!;
      users.indexes.push({
        ...users.indexes[0]!,
        name: 'users_name_icu',
        is_unique: false,
        is_primary: false,
        columns: ['name'],
        definition: 'CREATE INDEX users_name_icu ON public.users USING btree (name COLLATE "en-US-x-icu")',
      });
      const migration = 'ALTER TABLE users ADD COLUMN note text';
      const local = await sandbox(snapshot, migration);
      expect(local.validation_results[0]).toMatchObject({ check: 'schema_cloned', passed: false });
      const r = await sandbox(snapshot, migration, { server: server({ mode: 'extensions' }) });
      expect(r).toMatchObject({ passed: true, migration_error: null, tables_created: 1 });
      expect(r.validation_results[0]).toEqual({ check: 'schema_cloned', passed: true, detail: '1 table(s) cloned from the snapshot' });
      // A schema PGlite clones never reaches the server in this mode (this one is unreachable).
      const unreachable = new URL(serverUrl);
      unreachable.port = String(await freePort());
      expect(
        (await sandbox(shopSnapshot(), migration.replace('users', 'orders'), { server: { url: unreachable.toString(), mode: 'extensions' } })).passed,
      ).toBe(true);
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'refuses a sandbox server that is the database under analysis',
    async () => {
      const port = Number(new URL(serverUrl).port);
      const r = await sandbox(shopSnapshot(), 'ALTER TABLE orders ADD COLUMN note text', {
        server: server({ analysedDatabase: async () => ({ host: 'localhost', port, database: 'postgres' }) }),
      });
      expect(r).toMatchObject({ passed: false, migration_applied: false });
      expect(r.migration_error).toBe(
        'Sandbox setup failed: the sandbox server is the database under analysis (same host, port and database); DBOPS_SANDBOX_SERVER_URL must name a dedicated throwaway server',
      );
      // Another database on the same server is not the one under analysis.
      const other = await sandbox(shopSnapshot(), 'ALTER TABLE orders ADD COLUMN note text', {
        server: server({ analysedDatabase: async () => ({ host: 'localhost', port, database: 'shop' }) }),
      });
      expect(other.passed).toBe(true);
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'never quotes the connection string when the server cannot be used',
    async () => {
      const wrong = new URL(serverUrl);
      wrong.password = 'not-the-password-0451';
      const denied = await sandbox(shopSnapshot(), 'ALTER TABLE orders ADD COLUMN note text', { server: server({ url: wrong.toString() }) });
      expect(denied.migration_error).toBe('Sandbox setup failed: sandbox server: connecting failed (authentication failed, 28P01)');
      const closed = new URL(serverUrl);
      closed.port = String(await freePort());
      const refused = await sandbox(shopSnapshot(), 'ALTER TABLE orders ADD COLUMN note text', { server: server({ url: closed.toString() }) });
      expect(refused.migration_error).toBe('Sandbox setup failed: sandbox server: connecting failed (connection refused, ECONNREFUSED)');
      for (const r of [denied, refused]) {
        const text = JSON.stringify(r);
        for (const secret of ['not-the-password-0451', password, role, closed.port, new URL(serverUrl).port, new URL(serverUrl).hostname])
          expect(text).not.toContain(secret);
      }
    },
    SLOW,
  );
});
