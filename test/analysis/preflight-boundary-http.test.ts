import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '@dbops/core/analysis';
import { callTool, connectMcpHttp } from '../support/mcp';
import { sql } from '../support/scratch-database';
import { type SentinelSession, startSentinel } from '../support/sentinel-session';
import { databaseFingerprint, type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

// Issue #35, part 1: the preflight evaluates the migration's expressions on the live database.
// Every path below reached the target past the guardrails before the live-expression gate: a
// server file in the response, a write through dblink, a killed session. The connection role is
// a superuser (the worst case, as many self-managed setups connect), and the API key is the
// tightest an agent can hold.

const SECRET = `dbops-secret-${randomBytes(8).toString('hex')}`;
const FILE = `/tmp/dbops-preflight-${randomBytes(6).toString('hex')}`;

const SETUP = `
  CREATE EXTENSION dblink;
  CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL, n int);
  INSERT INTO t SELECT g, 'v' || g, g FROM generate_series(1, 50) g;
  CREATE SEQUENCE s;
  CREATE TABLE audit (at timestamptz DEFAULT now());
  CREATE DOMAIN positive AS int;
  CREATE TABLE d (id int PRIMARY KEY, p positive);
  INSERT INTO d SELECT g, g FROM generate_series(1, 10) g;
  CREATE TABLE parted (id int, k int) PARTITION BY RANGE (k);
  CREATE TABLE loose (id int, k int);
  INSERT INTO loose VALUES (1, 5);
  -- Labelled IMMUTABLE, writes through another session: planning folds it.
  CREATE FUNCTION sneaky() RETURNS int LANGUAGE sql IMMUTABLE
    AS $$ SELECT length(dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')) $$;
  -- A harmless user function: judged by its body, evaluated as before.
  CREATE FUNCTION positive_part(int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT greatest($1, 0) $$;
`;

const WRITE = "dblink_exec('URL', 'INSERT INTO audit DEFAULT VALUES')";

/** Hostile migrations: each would read FILE, write through dblink or kill the sentinel if evaluated. */
const HOSTILE: Array<[string, string]> = [
  ['CHECK reading a file', "ALTER TABLE t ADD CONSTRAINT c1 CHECK ((pg_read_file('FILE', 0, 200))::int > 0)"],
  ['CHECK writing through dblink', `ALTER TABLE t ADD CONSTRAINT c2 CHECK (${WRITE} IS NULL)`],
  ['CHECK killing a session', 'ALTER TABLE t ADD CONSTRAINT c3 CHECK (pg_terminate_backend(PID) IS NULL)'],
  ['domain CHECK', `ALTER DOMAIN positive ADD CONSTRAINT p1 CHECK (${WRITE} IS NULL)`],
  ['unique expression index', `CREATE UNIQUE INDEX u1 ON t ((${WRITE}))`],
  ['unique partial index', `CREATE UNIQUE INDEX u2 ON t (id) WHERE pg_terminate_backend(PID)`],
  ['EXCLUDE element', `ALTER TABLE t ADD CONSTRAINT x1 EXCLUDE USING btree ((${WRITE}) WITH =)`],
  ['EXCLUDE predicate', "ALTER TABLE t ADD CONSTRAINT x2 EXCLUDE USING btree (id WITH =) WHERE ((pg_read_file('FILE'))::int > 0)"],
  ['USING cast', "ALTER TABLE t ALTER COLUMN v TYPE int USING (pg_read_file('FILE', 0, 200))::int"],
  ['partition bound', `ALTER TABLE parted ATTACH PARTITION loose FOR VALUES FROM (length(${WRITE})) TO (100)`],
  ['DML predicate folded by the planner', 'UPDATE t SET n = n WHERE id = sneaky()'],
  // The rows of a DML statement are planned on the target (the lock-timing estimate), sub-queries
  // and an INSERT's query included: each passes the same gate.
  ['DML sub-query folded by the planner', 'DELETE FROM t WHERE id IN (SELECT sneaky())'],
  ['DML WITH folded by the planner', 'WITH k AS (SELECT sneaky() AS id) UPDATE t SET n = n WHERE id IN (SELECT id FROM k)'],
  ["DML INSERT's query folded by the planner", 'INSERT INTO d SELECT id + 100, n FROM t WHERE id = sneaky()'],
  // A partial index's predicate is planned for the rows the build sorts: the same gate.
  ['planned: a partial index predicate folded by the planner', 'CREATE INDEX p1 ON t (id) WHERE id = sneaky()'],
  // A btree build's keys are sorted from a sample of the rows (the lock-timing estimate): gated too.
  ['planned: an index expression sorted from a sample', `CREATE INDEX e1 ON t ((${WRITE}))`],
  ["DML INSERT's query killing a session", 'INSERT INTO d SELECT id + 100, n FROM t WHERE pg_terminate_backend(PID)'],
  // A rewrite's new values are computed on a sample of the rows (the lock-timing estimate): gated too.
  ['planned: a volatile DEFAULT computed for a rewrite', `ALTER TABLE t ADD COLUMN w text DEFAULT ${WRITE}`],
  ['planned: a stored generated column killing a session', 'ALTER TABLE t ADD COLUMN g boolean GENERATED ALWAYS AS (pg_terminate_backend(PID)) STORED'],
];

const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;
let strictKey: string;
let sentinel: SentinelSession;

const sub = (s: string): string => s.replaceAll('URL', f.db.url).replaceAll('FILE', FILE).replaceAll('PID', String(sentinel.pid));

beforeAll(async () => {
  writeFileSync(FILE, `${SECRET}\n`);
  f = await startExecuteFixture({ user: 'preflight-attacker', setupSql: 'SELECT 1' });
  await sql(f.db.url, SETUP.replaceAll('URL', f.db.url));
  await f.t.request('POST', `/connections/${f.connectionId}/introspect`, { apiKey: f.apiKey });
  const created = await f.t.request('POST', '/api-keys', {
    jwt: await f.t.jwt(f.user),
    body: { name: 'tight agent', policy: { max_caller: 'agent', max_guardrail: 'strict', read_only: true } },
  });
  expect(created.status, created.text).toBe(201);
  strictKey = created.body.data.key;
  sentinel = await startSentinel(f.db.url);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await sentinel?.stop();
  await f?.close();
  rmSync(FILE, { force: true });
});

/** Rows, catalog, the audit table dblink would write to, and the sentinel session. */
async function fingerprint(): Promise<Record<string, unknown>> {
  const admin = await f.admin();
  const [extra] = (
    await admin.query(
      `SELECT (SELECT md5(string_agg(d::text, ',' ORDER BY id)) FROM d) AS d_rows,
            (SELECT string_agg(conname, ',' ORDER BY conname) FROM pg_constraint WHERE connamespace = 'public'::regnamespace) AS constraints`,
    )
  ).rows;
  return { ...(await databaseFingerprint(admin)), ...extra };
}

/** The findings of one analysis that name the statement's expression as not verified. */
const unverified = (r: AnalysisReport) => r.sandbox_result.validation_results.filter((v) => v.check.startsWith('preflight_') && /not verified/.test(v.detail));

describe('the preflight never evaluates what it cannot prove harmless (HTTP, strict read-only agent key)', () => {
  for (const [name, migration] of HOSTILE) {
    it(`${name}: no file content, no live write, no killed session`, { timeout: 120_000 }, async () => {
      const before = await fingerprint();
      const res = await f.t.request<AnalysisReport>('POST', `/connections/${f.connectionId}/migrations/analyze`, {
        apiKey: strictKey,
        body: { sql: sub(migration) },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(SECRET);
      expect(await fingerprint()).toEqual(before);
      expect(before.audit_rows).toBe(0);
      expect(before.sentinels).toBe(1);
      expect(sentinel.failed()).toBe(false);
      // DML and the partial index's rows are planned for the lock-timing estimate, not evaluated by the preflight: nothing to report as not verified.
      if (!/^(DML|planned)/.test(name)) {
        const found = unverified(res.body);
        expect(found.length, JSON.stringify(res.body.sandbox_result.validation_results)).toBeGreaterThan(0);
        expect(found[0]!.detail).toMatch(/not verified on the live data: the expression calls .*(pg_read_file|dblink_exec|pg_terminate_backend)/);
        expect(res.body.warnings.join('\n')).toMatch(/not verified on the live data/);
      }
    });
  }

  it('still evaluates what it can read: a CHECK through a pure user function finds the violating row', async () => {
    await sql(f.db.url, `UPDATE t SET n = -7 WHERE id = 3`);
    try {
      const res = await f.t.request<AnalysisReport>('POST', `/connections/${f.connectionId}/migrations/analyze`, {
        apiKey: strictKey,
        body: { sql: 'ALTER TABLE t ADD CONSTRAINT c_pos CHECK (positive_part(n) = n)' },
      });
      expect(res.status, res.text).toBe(200);
      const check = res.body.sandbox_result.validation_results.find((v) => v.check === 'preflight_check_constraint');
      expect(check?.detail).toMatch(/FAILED.*1 row\(s\) violate it, e\.g\. id = 3/);
      expect(res.body.approval_token).toBeNull();
    } finally {
      await sql(f.db.url, `UPDATE t SET n = 3 WHERE id = 3`);
    }
  });

  it("repeats no server error's quoted text: a failing cast names the error, not the value", async () => {
    await sql(f.db.url, `UPDATE t SET v = '${SECRET}' WHERE id = 7`);
    try {
      const res = await f.t.request<AnalysisReport>('POST', `/connections/${f.connectionId}/migrations/analyze`, {
        apiKey: strictKey,
        body: { sql: 'ALTER TABLE t ALTER COLUMN v TYPE int USING v::int' },
      });
      expect(res.status, res.text).toBe(200);
      const cast = res.body.sandbox_result.validation_results.find((v) => v.check === 'preflight_type_cast');
      expect(cast?.detail).toMatch(/first error: invalid input syntax for type integer: "…"/);
    } finally {
      await sql(f.db.url, `UPDATE t SET v = 'v7' WHERE id = 7`);
    }
  });
});

describe('the same through MCP with read_only=true', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectMcpHttp(f.t.baseUrl, strictKey, '?read_only=true');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('analyze_migration (readOnlyHint) neither writes through dblink nor reads the file', { timeout: 120_000 }, async () => {
    for (const [, migration] of HOSTILE.filter(([n]) => /file|dblink/.test(n))) {
      const before = await fingerprint();
      const res = await callTool(client, 'analyze_migration', { connection_id: f.connectionId, sql: sub(migration) });
      expect(res.isError, res.summary).toBe(false);
      expect(JSON.stringify(res.json)).not.toContain(SECRET);
      expect(await fingerprint()).toEqual(before);
    }
  });
});
