import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../test/support/scratch-database';
import { AppError } from '../errors/app-error';
import { type ExecuteRequest, executeSql } from './execute-sql';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;

async function run(sqlText: string, opts: Partial<ExecuteRequest> = {}) {
  const client = new pg.Client({ connectionString: db.url, application_name: 'sql-exec-unit' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await executeSql(
      client,
      { sql: sqlText, caller: 'human', guardrail: 'strict', rowLimit: 1000, timeoutSeconds: 30, ...opts },
      {
        watchdogGraceMs: 300,
        async cancelBackend(pid, terminate) {
          const rows = await sql(db.url, terminate ? 'SELECT pg_terminate_backend($1)' : 'SELECT pg_cancel_backend($1)', [pid]);
          void rows;
        },
      },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as AppError,
  );

beforeAll(async () => {
  db = await createScratchDatabase('sqlx');
  await sql(
    db.url,
    `CREATE TABLE t (id int PRIMARY KEY, v text);
    INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 50) g;
    CREATE SEQUENCE s;
    CREATE TABLE audit (at timestamptz DEFAULT now());
    CREATE FUNCTION touch() RETURNS int LANGUAGE sql VOLATILE AS 'INSERT INTO audit DEFAULT VALUES RETURNING 1';
    CREATE VIEW sneaky AS SELECT touch() AS x;`,
  );
});
afterAll(() => db.drop());

describe('executeSql', () => {
  it('returns JSON values that round-trip', async () => {
    const r = await run(`SELECT 9007199254740993::int8 AS big, 1.10::numeric AS num, 42 AS i, 1.5::float8 AS f, 'NaN'::float8 AS nan,
      true AS b, '{"a":[1,2]}'::jsonb AS j, '\\x00ff'::bytea AS by, '2024-01-02 03:04:05.123456'::timestamp AS ts,
      '2024-01-02 03:04:05.5+05:30'::timestamptz AS tstz, '2024-01-02'::date AS d, '1 day 2 hours'::interval AS iv,
      ARRAY[1,2]::int8[] AS arr, ARRAY['2024-01-02 03:04:05+00'::timestamptz, NULL] AS tsarr, NULL::text AS n,
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS u`);
    expect(r.columns).toEqual(['big', 'num', 'i', 'f', 'nan', 'b', 'j', 'by', 'ts', 'tstz', 'd', 'iv', 'arr', 'tsarr', 'n', 'u']);
    const [row] = r.rows;
    expect(row![0]).toBe('9007199254740993');
    expect(row![1]).toBe('1.10');
    expect(row!.slice(2, 8)).toEqual([42, 1.5, 'NaN', true, { a: [1, 2] }, '\\x00ff']);
    expect(row![8]).toBe('2024-01-02T03:04:05.123456');
    expect(new Date(row![9] as string).toISOString()).toBe('2024-01-01T21:34:05.500Z');
    expect(row![9]).toMatch(/^2024-01-0\dT\d\d:\d\d:05\.5[+-]\d\d:\d\d$/);
    expect(row!.slice(10)).toEqual([
      '2024-01-02',
      'P1DT2H',
      ['1', '2'],
      [expect.stringMatching(/^2024-01-0\dT\d\d:04:05[+-]\d\d:\d\d$/), null],
      null,
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    ]);
    expect(r).toMatchObject({ row_count: 1, truncated: false });
    expect(r).not.toHaveProperty('affected_rows');
  });

  it('cuts rows at row_limit and says so, and not when the result fits exactly', async () => {
    const cut = await run('SELECT g FROM generate_series(1, 1000000) g', { rowLimit: 10 });
    expect(cut).toMatchObject({ row_count: 10, truncated: true });
    expect(cut.rows.at(-1)).toEqual([10]);
    expect(await run('SELECT g FROM generate_series(1, 10) g', { rowLimit: 10 })).toMatchObject({ row_count: 10, truncated: false });
  });

  it("opens and rolls back a strict agent's transaction in the statement's own round trip when it reaches no catalog object", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const sent: string[] = [];
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, { query: (q: unknown, ...rest: unknown[]) => (sent.push(typeof q === 'string' ? q : 'the statement'), query(q, ...rest)) });
      const idle = () => (client as unknown as { _txStatus: string })._txStatus;
      const agent = (sqlText: string, rowLimit: number, rollbackOnRelease: boolean) =>
        executeSql(
          client,
          { sql: sqlText, caller: 'agent', guardrail: 'strict', rowLimit, timeoutSeconds: 30 },
          { cancelBackend: async () => undefined, rollbackOnRelease },
        );

      const three = 'SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3';
      // Cut at the limit (the portal suspended), then the ROLLBACK of the same packet: one trip, and the session idle.
      expect(await agent(three, 2, true)).toEqual({
        columns: ['n'],
        rows: [[1], [2]],
        row_count: 2,
        truncated: true,
        truncated_reason: 'row_limit',
      });
      expect(sent).toEqual(['the statement']);
      expect(idle()).toBe('I');
      // Rows read in batches leave the transaction to the caller: the pool's release, or here at once.
      sent.length = 0;
      expect((await agent(three, 5000, false)).rows).toEqual([[1], [2], [3]]);
      expect(sent).toEqual(['the statement', 'ROLLBACK']);
      expect(idle()).toBe('I');
      // A statement that fails skips the ROLLBACK of its packet: the error path ends the transaction.
      sent.length = 0;
      expect(await fail(agent("SELECT 1 UNION ALL SELECT 'x'", 2, true))).toMatchObject({ code: 'SQL_ERROR' });
      expect(sent).toEqual(['the statement', 'ROLLBACK']);
      expect(idle()).toBe('I');
    } finally {
      await client.end();
    }
  });

  it('reports affected_rows for DML even when RETURNING rows are cut', async () => {
    const r = await run('UPDATE t SET v = v RETURNING id', { rowLimit: 5 });
    expect(r).toMatchObject({ affected_rows: 50, row_count: 5, truncated: true, columns: ['id'] });
    expect(await run("INSERT INTO t VALUES (1000, 'x')")).toEqual({ columns: [], rows: [], row_count: 0, truncated: false, affected_rows: 1 });
  });

  it('runs several statements for humans in one transaction and returns the last result', async () => {
    const r = await run("INSERT INTO t VALUES (2000, 'a'); SELECT count(*) AS n FROM t WHERE id = 2000");
    expect(r.rows).toEqual([['1']]);
    const err = await fail(run("INSERT INTO t VALUES (3000, 'a'); SELECT * FROM nope"));
    expect(err.code).toBe('SQL_ERROR');
    expect(err.details).toMatchObject({ sqlstate: '42P01', position: "INSERT INTO t VALUES (3000, 'a'); SELECT * FROM nope".indexOf('nope') + 1 });
    expect(await sql(db.url, 'SELECT 1 FROM t WHERE id = 3000')).toEqual([]);
  });

  it('copes with COPY for humans: TO STDOUT gives no rows, FROM STDIN is refused', async () => {
    expect(await run('COPY t TO STDOUT', { timeoutSeconds: 5 })).toMatchObject({ rows: [], truncated: false });
    const err = await fail(run('COPY t FROM STDIN', { timeoutSeconds: 5 }));
    expect(err.code).toBe('SQL_ERROR');
    expect(err.details).toMatchObject({ sqlstate: '57014' });
  });

  it('blocks an agent view that writes through the read-only transaction at strict', async () => {
    const err = await fail(run('SELECT * FROM sneaky', { caller: 'agent' }));
    expect(err.code).toBe('GUARDRAIL_VIOLATION');
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
  });

  it('judges a user function by its body in the catalog, not by its label', async () => {
    const err = await fail(run('SELECT touch()', { caller: 'agent', guardrail: 'strict' }));
    expect(err.code).toBe('GUARDRAIL_VIOLATION');
    expect(err.message).toContain('INSERT in function touch()');
    expect(err.details).toMatchObject({ statement_kind: 'dml' });
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 0 }]);
    // Its body is an INSERT: DML, which moderate allows.
    expect((await run('SELECT touch()', { caller: 'agent', guardrail: 'moderate' })).rows).toEqual([[1]]);
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit')).toEqual([{ n: 1 }]);
    expect((await run('SELECT random() < 2 AS ok, gen_random_uuid() IS NOT NULL AS u', { caller: 'agent' })).rows).toEqual([[true, true]]);
    await sql(db.url, 'DELETE FROM audit');
  });

  it('answers TIMEOUT from statement_timeout, and from the watchdog when a human turned it off', async () => {
    const started = Date.now();
    expect((await fail(run('SELECT pg_sleep(20)', { timeoutSeconds: 1 }))).code).toBe('TIMEOUT');
    expect((await fail(run('SET statement_timeout = 0; SELECT pg_sleep(20)', { timeoutSeconds: 1 }))).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(8000);
    const active = await sql(db.url, "SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(20)%' AND state = 'active' AND pid <> pg_backend_pid()");
    expect(active).toEqual([]);
  });
});
