import { describe, expect, it } from 'vitest';
import { classifyStatement } from './classify-statement';
import { parseSql, SqlSyntaxError } from './parse-sql';

async function classify(sql: string) {
  const stmts = await parseSql(sql);
  expect(stmts).toHaveLength(1);
  return classifyStatement(stmts[0]!);
}

describe('classifyStatement', () => {
  it.each([
    ['SELECT 1', 'select'],
    ['select * from t where a > 1 order by 1 limit 5', 'select'],
    ['VALUES (1), (2)', 'select'],
    ['TABLE t', 'select'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'select'],
    ['SHOW work_mem', 'select'],
    ['EXPLAIN DELETE FROM t', 'select'],
    ['EXPLAIN (ANALYZE false) DELETE FROM t', 'select'],
    ['EXPLAIN ANALYZE SELECT 1', 'select'],
    ['/* DROP TABLE t */ SELECT 1', 'select'],
    ['INSERT INTO t VALUES (1)', 'dml'],
    ['UPDATE t SET a = 1', 'dml'],
    ['DELETE FROM t', 'dml'],
    ['MERGE INTO t USING u ON t.a = u.a WHEN MATCHED THEN DELETE', 'dml'],
    ['WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', 'dml'],
    ['SELECT * FROM (WITH d AS (UPDATE t SET a = 2 RETURNING a) SELECT a FROM d) s', 'dml'],
    ['SELECT * FROM t FOR UPDATE', 'dml'],
    ['SELECT * FROM t FOR SHARE SKIP LOCKED', 'dml'],
    ['SELECT * FROM (SELECT * FROM t FOR KEY SHARE) s', 'dml'],
    ['EXPLAIN ANALYZE DELETE FROM t', 'dml'],
    ['EXPLAIN (ANALYZE, COSTS off) UPDATE t SET a = 1', 'dml'],
    ['EXPLAIN (ANALYZE true) INSERT INTO t VALUES (1)', 'dml'],
    ["SELECT nextval('s')", 'other'],
    ["SELECT * FROM setval('s', 10)", 'other'],
    ['SELECT pg_advisory_lock(1)', 'other'],
    ['SELECT pg_try_advisory_xact_lock(1)', 'other'],
    ['CREATE TABLE x (a int)', 'ddl'],
    ['ALTER TABLE t ADD COLUMN b int', 'ddl'],
    ['DROP TABLE t', 'ddl'],
    ['TRUNCATE t', 'ddl'],
    ['CREATE INDEX ON t (a)', 'ddl'],
    ['SELECT * INTO newt FROM t', 'ddl'],
    ['CREATE TABLE c AS SELECT 1', 'ddl'],
    ['EXPLAIN ANALYZE CREATE TABLE c AS SELECT 1', 'ddl'],
    ['COMMIT', 'other'],
    ['ROLLBACK', 'other'],
    ['BEGIN', 'other'],
    ['SET TRANSACTION READ WRITE', 'other'],
    ['SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE', 'other'],
    ['SET statement_timeout = 0', 'other'],
    ['RESET ALL', 'other'],
    ['COPY t TO STDOUT', 'other'],
    ["COPY t FROM '/etc/passwd'", 'other'],
    ['DO $$ BEGIN DROP TABLE t; END $$', 'other'],
    ['CALL p()', 'other'],
    ['LISTEN ch', 'other'],
    ["NOTIFY ch, 'x'", 'other'],
    ['PREPARE p AS DELETE FROM t', 'other'],
    ['EXECUTE p', 'other'],
    ['EXPLAIN ANALYZE EXECUTE p', 'other'],
    ['LOCK TABLE t IN ACCESS EXCLUSIVE MODE', 'other'],
    ['VACUUM t', 'other'],
    ['ANALYZE t', 'other'],
    ['DECLARE c CURSOR FOR SELECT 1', 'other'],
    ["SELECT dblink_exec('dbname=x', 'DROP TABLE t')", 'other'],
    ["SELECT * FROM dblink('dbname=x', 'SELECT 1') AS r(a int)", 'other'],
    ["SELECT lo_import('/etc/passwd')", 'other'],
    ["SELECT lo_export(1, '/tmp/x')", 'other'],
    ["SELECT pg_read_file('/etc/passwd')", 'other'],
    ["SELECT pg_catalog.pg_read_binary_file('/etc/passwd')", 'other'],
    ["SELECT * FROM pg_ls_dir('.')", 'other'],
    ["SELECT set_config('statement_timeout', '0', false)", 'other'],
    ['SELECT pg_terminate_backend(1)', 'other'],
    ['SELECT pg_cancel_backend(1)', 'other'],
    ["SELECT query_to_xml('DELETE FROM t RETURNING 1', true, false, '')", 'other'],
    ["SELECT 1 WHERE EXISTS (SELECT pg_read_file('x'))", 'other'],
    ['CREATE DATABASE x', 'other'],
    ['ALTER SYSTEM SET work_mem = 1', 'other'],
    ['CREATE ROLE r', 'other'],
    ["UPDATE pg_catalog.pg_class SET relname = 'x' WHERE relname = 't'", 'other'],
    ["DELETE FROM pg_constraint WHERE conname = 'c'", 'other'],
    ["INSERT INTO information_schema.sql_features VALUES ('x')", 'other'],
    ['WITH d AS (DELETE FROM pg_catalog.pg_constraint RETURNING 1) SELECT 1', 'other'],
    ['UPDATE pg_stuff_is_mine SET a = 1', 'other'],
    ["SELECT lo_from_bytea(0, 'x')", 'other'],
    ["SELECT pg_notify('c', 'x')", 'other'],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ COPY (SELECT 1) TO PROGRAM 'id'; SELECT 1 $$", 'other'],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'COPY t TO PROGRAM ''id'''; RETURN 1; END $$", 'other'],
    ['CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ INSERT INTO t VALUES (1) RETURNING 1 $$', 'ddl'],
  ])('%s -> %s', async (sql, kind) => {
    expect((await classify(sql)).kind).toBe(kind);
  });

  it('collects every called function, qualified or not, and operators', async () => {
    const c = await classify('SELECT f(1), s.g(x) FROM t WHERE a ### b > h() ORDER BY f(2)');
    expect(c.functions).toEqual([
      { schema: null, name: 'f' },
      { schema: 's', name: 'g' },
      { schema: null, name: 'h' },
    ]);
    expect(c.operators).toEqual(expect.arrayContaining(['###', '>']));
  });

  it('knows when a statement names nothing the catalog defines', async () => {
    expect((await classify('SELECT 1')).reachesCatalog).toBe(false);
    expect((await classify("SELECT 1, 'a', true")).reachesCatalog).toBe(false);
    expect((await classify('SELECT 1 + 1')).reachesCatalog).toBe(true);
    expect((await classify('SELECT * FROM t')).reachesCatalog).toBe(true);
    expect((await classify('SELECT a FROM t WHERE a = ANY (SELECT b FROM u)')).operators).toContain('=');
  });

  it('names the construct that raised the kind', async () => {
    const c = await classify('WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d');
    expect(c.findings.map((f) => f.what)).toContain('data-modifying statement inside the query (DELETE)');
    expect((await classify('DROP TABLE t')).label).toBe('DROP TABLE');
    expect((await classify('EXPLAIN ANALYZE DELETE FROM t')).label).toBe('EXPLAIN ANALYZE');
  });
});

describe('parseSql', () => {
  it('splits statements, drops comments and keeps character offsets of multi-byte text', async () => {
    const sql = "SELECT 'é'; /* hidden */ DROP TABLE t;; -- tail";
    const stmts = await parseSql(sql);
    expect(stmts.map((s) => s.type)).toEqual(['SelectStmt', 'DropStmt']);
    expect(stmts[0]!.text).toBe("SELECT 'é'");
    expect(sql.slice(stmts[1]!.offset)).toMatch(/^\/\* hidden \*\/ DROP TABLE t/);
  });

  it('finds nothing in comments only', async () => {
    expect(await parseSql('-- nothing\n/* here */')).toEqual([]);
  });

  it('reports syntax errors with a 1-based character position', async () => {
    const err = await parseSql("SELECT 'é' WHERE xx yy").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlSyntaxError);
    expect((err as SqlSyntaxError).position).toBe("SELECT 'é' WHERE xx yy".indexOf('yy') + 1);
  });
});
