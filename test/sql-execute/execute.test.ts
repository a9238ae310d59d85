import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { registerConnection } from '../support/connections';
import { type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

/** Setup starts a runtime and creates and registers a database: slow when the machine is shared. */
const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;

beforeAll(async () => {
  f = await startExecuteFixture({
    user: 'execute-user',
    setupSql: `CREATE TABLE t (id int PRIMARY KEY, v text);
      INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 30) g;`,
  });
}, SETUP_TIMEOUT_MS);
afterAll(() => f.close());

describe('POST /execute', () => {
  it('answers the enveloped result with defaults applied and the billing header', async () => {
    const balance = await f.t.request('GET', '/billing/balance', { apiKey: f.apiKey });
    const res = await f.execute({ sql: 'SELECT id, v FROM t ORDER BY id LIMIT 2' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        columns: ['id', 'v'],
        rows: [
          [1, 'v1'],
          [2, 'v2'],
        ],
        row_count: 2,
        truncated: false,
      },
      error: null,
    });
    const remaining = res.headers.get('x-credits-remaining');
    expect(remaining).toMatch(/^\d+\.\d{4}$/);
    expect(Number(remaining)).toBeCloseTo(Number(balance.body.data.balance) - 0.005, 4);
  });

  it('round-trips values as JSON', async () => {
    const res = await f.execute({
      sql: `SELECT 9223372036854775807::int8 AS big, 12345678901234567890.123456789::numeric AS num, 7::int2 AS small, 2.5::float4 AS f4,
        'Infinity'::float8 AS inf, false AS b, '{"k": {"n": null}}'::json AS j, '[1, "x"]'::jsonb AS jb, decode('deadbeef', 'hex') AS bin,
        '2026-11-22 05:06:07.891234'::timestamp AS ts, '2026-11-22 05:06:07+00'::timestamptz AS tstz, '2026-11-22'::date AS d,
        '10:11:12'::time AS tm, '3 days 04:05:06'::interval AS iv, ARRAY['a', NULL, 'c'] AS txt, ARRAY[1.5, 2]::numeric[] AS nums,
        NULL AS nothing`,
    });
    expect(res.status, res.text).toBe(200);
    const [row] = res.body.data.rows;
    expect(row).toEqual([
      '9223372036854775807',
      '12345678901234567890.123456789',
      7,
      2.5,
      'Infinity',
      false,
      { k: { n: null } },
      [1, 'x'],
      '\\xdeadbeef',
      '2026-11-22T05:06:07.891234',
      expect.stringMatching(/^2026-11-22T\d\d:06:07[+-]\d\d:\d\d$/),
      '2026-11-22',
      '10:11:12',
      'P3DT4H5M6S',
      ['a', null, 'c'],
      ['1.5', '2'],
      null,
    ]);
    expect(new Date(row[10]).toISOString()).toBe('2026-11-22T05:06:07.000Z');
    // The strings go back in unchanged.
    const back = await f.execute({
      sql: `SELECT '${row[0]}'::int8 = 9223372036854775807 AND '${row[8]}'::bytea = decode('deadbeef', 'hex') AND '${row[10]}'::timestamptz = '2026-11-22 05:06:07+00' AND '${row[13]}'::interval = '3 days 04:05:06' AS same`,
    });
    expect(back.body.data.rows).toEqual([[true]]);
  });

  it('cuts rows beyond row_limit and says so', async () => {
    const res = await f.execute({ sql: 'SELECT id FROM t ORDER BY id', row_limit: 5 });
    expect(res.body.data).toEqual({ columns: ['id'], rows: [[1], [2], [3], [4], [5]], row_count: 5, truncated: true, truncated_reason: 'row_limit' });
    const exact = await f.execute({ sql: 'SELECT id FROM t', row_limit: 30 });
    expect(exact.body.data).toMatchObject({ row_count: 30, truncated: false });
    const big = await f.execute({ sql: 'SELECT g FROM generate_series(1, 50000) g', row_limit: 10000 });
    expect(big.body.data).toMatchObject({ row_count: 10000, truncated: true });
    const dflt = await f.execute({ sql: 'SELECT g FROM generate_series(1, 1500) g' });
    expect(dflt.body.data).toMatchObject({ row_count: 1000, truncated: true });
  });

  it('reports affected_rows for DML, RETURNING rows, and runs DDL', async () => {
    const ins = await f.execute({ sql: "INSERT INTO t SELECT g, 'n' FROM generate_series(100, 109) g", caller: 'agent', guardrail: 'moderate' });
    expect(ins.body.data).toEqual({ columns: [], rows: [], row_count: 0, truncated: false, affected_rows: 10 });
    const upd = await f.execute({ sql: "UPDATE t SET v = 'u' WHERE id >= 100 RETURNING id", row_limit: 3 });
    expect(upd.body.data).toMatchObject({ columns: ['id'], row_count: 3, truncated: true, affected_rows: 10 });
    const del = await f.execute({ sql: 'DELETE FROM t WHERE id >= 100' });
    expect(del.body.data.affected_rows).toBe(10);
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM t')).toEqual([{ n: 30 }]);

    const ddl = await f.execute({ sql: 'CREATE TABLE made_by_agent (a int); ', caller: 'agent', guardrail: 'permissive' });
    expect(ddl.body.data).toEqual({ columns: [], rows: [], row_count: 0, truncated: false });
    const drop = await f.execute({ sql: 'DROP TABLE made_by_agent' });
    expect(drop.status).toBe(200);
    expect(await sql(f.db.url, "SELECT to_regclass('made_by_agent') AS r")).toEqual([{ r: null }]);
  });

  it('runs several statements for humans, all or nothing, and returns the last result', async () => {
    const res = await f.execute({ sql: "INSERT INTO t VALUES (500, 'a'); UPDATE t SET v = 'b' WHERE id = 500; SELECT v FROM t WHERE id = 500" });
    expect(res.body.data.rows).toEqual([['b']]);
    const failed = await f.execute({ sql: "INSERT INTO t VALUES (501, 'a'); INSERT INTO t VALUES (501, 'dup')" });
    expect(failed.status).toBe(400);
    expect(failed.body.error).toMatchObject({ code: 'SQL_ERROR', details: { sqlstate: '23505' } });
    expect(await sql(f.db.url, 'SELECT count(*)::int AS n FROM t WHERE id = 501')).toEqual([{ n: 0 }]);
    await sql(f.db.url, 'DELETE FROM t WHERE id = 500');
  });

  it('answers SQL_ERROR with SQLSTATE, message and position in the request', async () => {
    const text = 'SELECT 1;\nSELECT missing_col FROM t';
    const res = await f.execute({ sql: text });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      data: null,
      error: { code: 'SQL_ERROR', details: { sqlstate: '42703', position: text.indexOf('missing_col') + 1 } },
    });
    expect(res.body.error.message).toContain('missing_col');
    const syntax = await f.execute({ sql: 'SELEC 1', caller: 'agent' });
    expect(syntax.body.error).toMatchObject({ code: 'SQL_ERROR', details: { sqlstate: '42601', position: 1 } });
    const div = await f.execute({ sql: 'SELECT 1/0', caller: 'agent' });
    expect(div.body.error.details).toMatchObject({ sqlstate: '22012', position: null });
    const empty = await f.execute({ sql: '-- nothing' });
    expect(empty.body.error.code).toBe('SQL_ERROR');
  });

  it('enforces timeout_seconds on the server and really cancels the backend', async () => {
    for (const text of ['SELECT pg_sleep(30) /* t1 */', 'SET statement_timeout = 0; SELECT pg_sleep(30) /* t2 */']) {
      const started = Date.now();
      const res = await f.execute({ sql: text, timeout_seconds: 1 });
      expect(res.status, res.text).toBe(408);
      expect(res.body.error).toMatchObject({ code: 'TIMEOUT', details: { timeout_seconds: 1 } });
      expect(Date.now() - started).toBeLessThan(6000);
      const active = await sql(f.db.url, "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%' AND state = 'active'");
      expect(active).toEqual([]);
    }
    const agent = await f.execute({ sql: 'SELECT pg_sleep(30)', caller: 'agent', timeout_seconds: 1.5 });
    expect(agent.status).toBe(408);
  });

  it('validates the request with 422 and does not charge for it', async () => {
    const before = (await f.t.request('GET', '/billing/balance', { apiKey: f.apiKey })).body.data.balance;
    for (const body of [
      { sql: 'SELECT 1', row_limit: 0 },
      { sql: 'SELECT 1', row_limit: 10001 },
      { sql: 'SELECT 1', timeout_seconds: 0.5 },
      { sql: 'SELECT 1', timeout_seconds: 121 },
      { sql: 'SELECT 1', caller: 'robot' },
      { sql: 'SELECT 1', guardrail: 'lenient' },
      { sql: '' },
      { connection_id: 'not-a-uuid', sql: 'SELECT 1' },
    ]) {
      const res = await f.execute(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
      expect(res.headers.get('x-credits-remaining')).toBeNull();
    }
    const missing = await f.t.request('POST', '/execute', { apiKey: f.apiKey, body: { sql: 'SELECT 1' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'connection_id']);
    expect((await f.t.request('GET', '/billing/balance', { apiKey: f.apiKey })).body.data.balance).toBe(before);
  });

  it("answers 404 for another user's connection and for an unknown one", async () => {
    const other = await f.t.apiKey('someone-else');
    const res = await f.execute({ sql: 'SELECT 1' }, other);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const unknown = await f.t.request('POST', '/execute', {
      apiKey: f.apiKey,
      body: { connection_id: '00000000-0000-4000-8000-000000000000', sql: 'SELECT 1' },
    });
    expect(unknown.status).toBe(404);
    const mine = await registerConnection(f.t, 'someone-else', f.db.url);
    expect((await f.t.request('POST', '/execute', { apiKey: other, body: { connection_id: mine.id, sql: 'SELECT 1' } })).status).toBe(200);
  });

  it('leaves no session state behind for the next request', async () => {
    const dflt = (await f.execute({ sql: 'SHOW work_mem' })).body.data.rows[0][0];
    const res = await f.execute({
      sql: "SET work_mem = '1234kB'; SET DateStyle = 'German'; SET statement_timeout = 0; CREATE TEMP TABLE scratch (a int); SELECT pg_advisory_lock(77); LISTEN chan; PREPARE q AS SELECT 1; BEGIN",
    });
    expect(res.status, res.text).toBe(200);
    expect(
      await sql(
        f.db.url,
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 77 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      ),
    ).toEqual([{ n: 0 }]);
    for (let i = 0; i < 12; i++) {
      const check = await f.execute({
        sql: "SELECT current_setting('work_mem') AS w, to_regclass('pg_temp.scratch') AS t, (SELECT count(*) FROM pg_prepared_statements) AS p, (SELECT count(*) FROM pg_listening_channels()) AS l, '2024-01-02 03:04:05'::timestamp AS ts, current_setting('statement_timeout') AS st",
      });
      // The pool's default limit: the gateway's 30 s window minus the time to cancel and answer (time-budget.ts).
      expect(check.body.data.rows).toEqual([[dflt, null, '0', '0', '2024-01-02T03:04:05', '25s']]);
    }
  });

  it('requires credentials', async () => {
    const res = await f.t.request('POST', '/execute', { body: { connection_id: f.connectionId, sql: 'SELECT 1' } });
    expect(res.status).toBe(401);
  });
});
