import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { registerConnection } from '../support/connections';
import { createScratchDatabase, sql, targetServerUrl } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { schemaFingerprint } from '../support/analysis';

const SLOW = 180_000;

/** A schema PGlite cannot clone: citext columns (an extension the test server ships, PGlite's sandbox lacks). */
const CITEXT_SCHEMA = `
CREATE EXTENSION citext;
CREATE TABLE users (id bigint PRIMARY KEY, email citext NOT NULL UNIQUE, name text);
INSERT INTO users SELECT g, 'User' || g || '@Example.com', 'user ' || g FROM generate_series(1, 100) g;
ANALYZE;
`;

describe('POST /connections/{id}/migrations/analyze with a sandbox server', () => {
  // The test server stands in for the dedicated sandbox server, through a CREATEDB role of its
  // own: the databases that role owns are exactly those the sandbox created. Without CREATEROLE
  // there is no role per run (server-run-identity.test.ts covers that case).
  const role = `sbx_${randomBytes(5).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const admin = targetServerUrl();
  const sandboxDatabases = async () => sql(admin, `SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = $1)`, [role]);

  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  /** The database the sandbox URL names (it connects there to create and drop its own). */
  let maintenance: Awaited<ReturnType<typeof createScratchDatabase>>;
  let key: string;
  let connectionId: string;

  const analyze = (sqlText: string, id = connectionId) =>
    t.request<AnalysisReport>('POST', `/connections/${id}/migrations/analyze`, { apiKey: key, body: { sql: sqlText } });

  beforeAll(async () => {
    await sql(admin, `CREATE ROLE ${role} LOGIN CREATEDB PASSWORD '${password}'`);
    db = await createScratchDatabase('sbx');
    await sql(db.url, CITEXT_SCHEMA);
    maintenance = await createScratchDatabase('sbxm');
    await sql(maintenance.url, CITEXT_SCHEMA);
    const sandboxUrl = new URL(maintenance.url);
    sandboxUrl.username = role;
    sandboxUrl.password = password;
    // Default mode (extensions): the server only for schemas PGlite cannot clone.
    t = await startTestRuntime({ env: { DBOPS_SANDBOX_SERVER_URL: sandboxUrl.toString() } });
    connectionId = (await registerConnection(t, 'sara', db.url)).id;
    key = await t.apiKey('sara');
    const intro = await t.request('POST', `/connections/${connectionId}/introspect`, { apiKey: key });
    expect(intro.status, intro.text).toBe(200);
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await maintenance?.drop();
    for (const { datname } of (await sandboxDatabases()) as { datname: string }[]) await sql(admin, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await sql(admin, `DROP ROLE IF EXISTS ${role}`);
  });

  it(
    'runs the sandbox of a schema with an extension PGlite lacks on the server, and issues a token',
    async () => {
      const before = await schemaFingerprint(db.url);
      const res = await analyze(
        'ALTER TABLE users ADD COLUMN nick citext;\nCREATE INDEX CONCURRENTLY users_nick_idx ON users (nick);\nUPDATE users SET nick = email WHERE id = 1',
      );
      expect(res.status, res.text).toBe(200);
      const s = res.body.sandbox_result;
      expect(s).toMatchObject({ passed: true, migration_applied: true, migration_error: null, tables_created: 1, rows_inserted: 3 });
      expect(s.validation_results.map((v) => v.check)).toEqual([
        'schema_cloned',
        'synthetic_rows',
        'migration_applied',
        'object_exists',
        'object_exists',
        'row_counts_kept',
        'indexes_valid',
        // A CREATEDB-only role cannot make a role per run: the run passes and says what stays shared.
        'shared_role',
        'rollback_round_trip',
      ]);
      expect(s.validation_results.every((v) => v.passed)).toBe(true);
      expect(res.body.warnings).toContainEqual(expect.stringMatching(/^Sandbox: the sandbox server's role cannot create roles/));
      expect(typeof res.body.approval_token).toBe('string');
      expect(res.text).not.toContain(password);
      // The run's database is gone and the user's database is untouched.
      expect(await sandboxDatabases()).toEqual([]);
      expect(await schemaFingerprint(db.url)).toEqual(before);
    },
    SLOW,
  );

  it(
    'reports the PostgreSQL error of a failing migration as the PGlite sandbox does',
    async () => {
      const res = await analyze('ALTER TABLE users ADD COLUMN nick citext NOT NULL');
      expect(res.status, res.text).toBe(200);
      expect(res.body.sandbox_result).toMatchObject({ passed: false, migration_applied: false });
      expect(res.body.sandbox_result.validation_results).toContainEqual({
        check: 'migration_applied',
        passed: false,
        detail: 'Statement 0 (ALTER_TABLE_ADD_COLUMN) failed: column "nick" of relation "users" contains null values',
      });
      // A data error: the live rows' finding is the reason given.
      expect(res.body.sandbox_result.migration_error).toMatch(/^Preflight on the live data: statement 0 would fail: ADD COLUMN nick NOT NULL/);
      expect(res.body.approval_token).toBeNull();
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );

  it(
    'refuses to use the sandbox server when it is the database under analysis',
    async () => {
      // A connection to the very database the sandbox URL names (same host, port and database).
      const sameId = (await registerConnection(t, 'sara', maintenance.url, { name: 'sandbox server itself' })).id;
      expect((await t.request('POST', `/connections/${sameId}/introspect`, { apiKey: key })).status).toBe(200);
      const res = await analyze('CREATE TABLE x (id bigint PRIMARY KEY, email citext)', sameId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.sandbox_result.passed).toBe(false);
      expect(res.body.sandbox_result.migration_error).toMatch(/^Sandbox setup failed: the sandbox server is the database under analysis/);
      expect(res.body.approval_token).toBeNull();
      expect(await sandboxDatabases()).toEqual([]);
    },
    SLOW,
  );
});
