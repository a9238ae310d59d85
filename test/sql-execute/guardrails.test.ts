import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { type SentinelSession, startSentinel } from '../support/sentinel-session';
import { databaseFingerprint, type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

const SETUP = `
  CREATE TABLE t (id int PRIMARY KEY, v text);
  INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 20) g;
  CREATE SEQUENCE s;
  CREATE TABLE audit (at timestamptz DEFAULT now());
  CREATE FUNCTION touch() RETURNS int LANGUAGE sql VOLATILE AS 'INSERT INTO audit DEFAULT VALUES RETURNING 1';
  CREATE PROCEDURE p() LANGUAGE sql AS 'DELETE FROM t';
`;

/** Setup starts a runtime and creates and registers a database: slow when the machine is shared. */
const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;
let sentinel: SentinelSession;

beforeAll(async () => {
  f = await startExecuteFixture({ user: 'guardrail-user', setupSql: SETUP });
  // A long query a pg_cancel_backend bypass would interrupt.
  sentinel = await startSentinel(f.db.url);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await sentinel.stop();
  await f.close();
});

type Level = 'strict' | 'moderate' | 'permissive';

async function expectBlocked(statement: string, guardrail: Level, kind: string) {
  const before = await databaseFingerprint(await f.admin());
  const res = await f.execute({ sql: statement, caller: 'agent', guardrail });
  expect(res.status, `${statement} at ${guardrail}: ${res.text}`).toBe(403);
  expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'GUARDRAIL_VIOLATION' } });
  expect(res.body.error.details).toMatchObject({ statement_kind: kind, guardrail });
  expect(res.body.error.message).toContain(`"${guardrail}"`);
  expect(await databaseFingerprint(await f.admin())).toEqual(before);
  expect(sentinel.failed()).toBe(false);
}

describe('guardrail matrix (caller agent)', () => {
  const matrix: Array<[Level, boolean, boolean]> = [
    ['strict', false, false],
    ['moderate', true, false],
    ['permissive', true, true],
  ];
  it.each(matrix)('%s: SELECT allowed, DML %s, DDL %s', async (level, dmlAllowed, ddlAllowed) => {
    const sel = await f.execute({ sql: 'SELECT count(*) AS n FROM t', caller: 'agent', guardrail: level });
    expect(sel.status).toBe(200);
    expect(sel.body.data.rows).toEqual([[expect.any(String)]]);

    const dml = `UPDATE t SET v = 'changed-${level}' WHERE id = 1`;
    if (dmlAllowed) {
      const res = await f.execute({ sql: dml, caller: 'agent', guardrail: level });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.affected_rows).toBe(1);
      expect(await sql(f.db.url, 'SELECT v FROM t WHERE id = 1')).toEqual([{ v: `changed-${level}` }]);
      await sql(f.db.url, "UPDATE t SET v = 'v1' WHERE id = 1");
    } else {
      await expectBlocked(dml, level, 'dml');
    }

    const ddl = `CREATE TABLE made_${level} (a int)`;
    if (ddlAllowed) {
      const res = await f.execute({ sql: ddl, caller: 'agent', guardrail: level });
      expect(res.status, res.text).toBe(200);
      expect(await sql(f.db.url, `SELECT to_regclass('made_${level}') IS NOT NULL AS ok`)).toEqual([{ ok: true }]);
      await sql(f.db.url, `DROP TABLE made_${level}`);
    } else {
      await expectBlocked(ddl, level, 'ddl');
    }
  });

  it('defaults to guardrail strict for agents and to no guardrail for humans', async () => {
    const before = await databaseFingerprint(await f.admin());
    const res = await f.execute({ sql: "UPDATE t SET v = 'x' WHERE id = 2", caller: 'agent' });
    expect(res.status).toBe(403);
    expect(res.body.error.details).toMatchObject({ guardrail: 'strict', statement_kind: 'dml', required_guardrail: 'moderate' });
    expect(await databaseFingerprint(await f.admin())).toEqual(before);
    const human = await f.execute({ sql: "UPDATE t SET v = 'v2' WHERE id = 2; CREATE TABLE human_made (a int); DROP TABLE human_made" });
    expect(human.status, human.text).toBe(200);
  });
});

describe('bypasses are blocked', () => {
  // Blocked at every level, so checked at the loosest one.
  const everywhere: string[] = [
    'SELECT 1; DROP TABLE t',
    'SELECT 1; DELETE FROM t',
    'COMMIT; DROP TABLE t',
    'ROLLBACK; DELETE FROM t',
    'COMMIT',
    'ROLLBACK',
    'BEGIN',
    'SET TRANSACTION READ WRITE',
    'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE',
    'SET statement_timeout = 0',
    "SELECT dblink_exec('dbname=postgres', 'DROP TABLE t')",
    "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS r(a int)",
    "SELECT lo_import('/etc/hostname')",
    "SELECT lo_export(1, '/tmp/dbops-lo-export')",
    "SELECT pg_read_file('/etc/hostname')",
    "SELECT pg_catalog.pg_read_binary_file('/etc/hostname')",
    "SELECT * FROM pg_ls_dir('.')",
    "SELECT set_config('statement_timeout', '0', false)",
    "SELECT 1 FROM t WHERE v = set_config('transaction_read_only', 'off', true)",
    'SELECT pg_terminate_backend(%PID%)',
    'SELECT pg_cancel_backend(%PID%)',
    "SELECT query_to_xml('DELETE FROM t RETURNING 1', true, false, '')",
    'COPY t TO STDOUT',
    "COPY t FROM '/etc/hostname'",
    "COPY (SELECT 1) TO '/tmp/dbops-copy-out'",
    'DO $$ BEGIN DELETE FROM t; END $$',
    'CALL p()',
    'LISTEN chan',
    "NOTIFY chan, 'x'",
    'PREPARE q AS DELETE FROM t',
    'EXECUTE q',
    'LOCK TABLE t IN ACCESS EXCLUSIVE MODE',
    'VACUUM t',
    'ANALYZE t',
    'DECLARE c CURSOR FOR SELECT 1',
    'SELECT 1 /* ; */ ; DELETE FROM t',
    "SELECT nextval('s')",
    "SELECT setval('s', 100)",
    'SELECT pg_advisory_lock(42)',
    'SELECT pg_advisory_xact_lock(42)',
  ];
  it.each(everywhere)('%s (every level)', async (statement) => {
    const text = statement.replace('%PID%', String(sentinel.pid));
    await expectBlocked(text, 'permissive', 'other');
    await expectBlocked(text, 'strict', 'other');
  });

  // DML-level: blocked at strict.
  const atStrict: string[] = [
    'WITH d AS (DELETE FROM t RETURNING *) SELECT count(*) FROM d',
    "WITH u AS (UPDATE t SET v = 'x' RETURNING id) SELECT * FROM t",
    'SELECT * FROM t FOR UPDATE',
    'SELECT * FROM t FOR SHARE',
    'SELECT * FROM (SELECT * FROM t FOR NO KEY UPDATE) x',
    'EXPLAIN ANALYZE DELETE FROM t',
    'EXPLAIN (ANALYZE, FORMAT JSON) UPDATE t SET v = NULL',
    '-- SELECT 1\nDELETE FROM t',
    '/* SELECT * FROM t */ UPDATE t SET v = NULL',
    // touch() is VOLATILE and its body an INSERT: DML, whatever its label.
    'SELECT touch()',
    'SELECT * FROM t WHERE id = touch()',
    'SELECT public.touch()',
  ];
  it.each(atStrict)('%s (strict)', async (statement) => {
    await expectBlocked(statement, 'strict', 'dml');
  });

  // DDL-level: blocked at strict and moderate.
  const atModerate: string[] = [
    'DROP TABLE t',
    'TRUNCATE t',
    'ALTER TABLE t ADD COLUMN w int',
    'CREATE INDEX ON t (v)',
    'SELECT * INTO t_copy FROM t',
    'CREATE TABLE t_copy AS SELECT * FROM t',
    'EXPLAIN ANALYZE CREATE TABLE t_copy AS SELECT 1',
    '/* SELECT */ DROP TABLE t',
  ];
  it.each(atModerate)('%s (moderate and strict)', async (statement) => {
    await expectBlocked(statement, 'moderate', 'ddl');
    const strict = await f.execute({ sql: statement, caller: 'agent', guardrail: 'strict' });
    expect(strict.status).toBe(403);
  });

  it('names the construct, the kind and the blocking level in the message', async () => {
    const res = await f.execute({ sql: 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', caller: 'agent' });
    expect(res.body.error.message).toBe(
      'Blocked by guardrail "strict": data-modifying statement inside the query (DELETE) is DML (data change); it needs guardrail "moderate".',
    );
    const copy = await f.execute({ sql: 'COPY t TO STDOUT', caller: 'agent', guardrail: 'permissive' });
    expect(copy.body.error.details).toEqual({ statement_kind: 'other', statement: 'COPY', guardrail: 'permissive', required_guardrail: null });
  });

  it('still allows what strict should allow', async () => {
    for (const ok of [
      'EXPLAIN DELETE FROM t',
      'EXPLAIN ANALYZE SELECT * FROM t',
      'SELECT random() >= 0, now(), gen_random_uuid() IS NOT NULL',
      'SHOW work_mem',
      'VALUES (1)',
      'SELECT 1 -- DROP TABLE t',
    ]) {
      const res = await f.execute({ sql: ok, caller: 'agent' });
      expect(res.status, `${ok}: ${res.text}`).toBe(200);
    }
  });

  it('sees a writing function behind a view, and runs strict READ ONLY and rolled back', async () => {
    await sql(f.db.url, 'CREATE VIEW sneaky AS SELECT touch() AS x');
    try {
      const before = await databaseFingerprint(await f.admin());
      const res = await f.execute({ sql: 'SELECT * FROM sneaky', caller: 'agent' });
      expect(res.status).toBe(403);
      expect(res.body.error.details.statement).toBe('INSERT in function touch() (reached through relation sneaky)');
      expect(await databaseFingerprint(await f.admin())).toEqual(before);
      const ro = await f.execute({ sql: "SELECT current_setting('transaction_read_only') AS ro", caller: 'agent' });
      expect(ro.body.data.rows).toEqual([['on']]);
    } finally {
      await sql(f.db.url, 'DROP VIEW sneaky');
    }
  });
});
