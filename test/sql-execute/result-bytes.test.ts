import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { startExecuteFixture, type ExecuteFixture } from '../support/sql-execute';

/** A small byte budget, so the test needs no megabytes; the default is 5 MiB. */
const MAX_BYTES = 100_000;

let f: ExecuteFixture;
beforeAll(async () => {
  f = await startExecuteFixture({
    user: 'result-bytes-user',
    setupSql: 'CREATE SEQUENCE produced; CREATE TABLE sink (id int)',
    env: { DBOPS_EXECUTE_MAX_RESULT_BYTES: String(MAX_BYTES) },
  });
});
afterAll(() => f?.close());

const produced = async (): Promise<number> => {
  const [row] = await sql<{ n: string }>(f.db.url, 'SELECT last_value AS n FROM produced');
  return Number(row!.n);
};

describe('POST /execute answers at most max_bytes of rows', () => {
  it('cuts wide rows at the byte budget, says why, and stops reading the cursor there', async () => {
    const res = await f.execute({ sql: "SELECT nextval('produced') AS n, repeat('x', 1000) AS pad FROM generate_series(1, 10000)", row_limit: 10_000 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ truncated: true, truncated_reason: 'max_bytes', max_bytes: MAX_BYTES });
    const kept = res.body.data.row_count;
    expect(kept).toBeGreaterThan(80);
    expect(kept).toBeLessThan(100);
    // The answer, escaped once more as a Lambda payload, is within the budget plus the envelope.
    expect(Buffer.byteLength(JSON.stringify(res.text))).toBeLessThan(MAX_BYTES + 1000);
    // The server produced one batch, not the 10,000 rows the row limit allowed.
    expect(await produced()).toBeLessThanOrEqual(1001);
  });

  it('counts the bytes a row weighs in the response, quotes and backslashes escaped twice', async () => {
    const res = await f.execute({ sql: `SELECT repeat('"\\', 500) AS q FROM generate_series(1, 1000)`, row_limit: 1000 });
    expect(res.body.data.truncated_reason).toBe('max_bytes');
    expect(Buffer.byteLength(JSON.stringify(res.text))).toBeLessThan(MAX_BYTES + 1000);
  });

  it('reads a large row_limit in batches and keeps every row that fits', async () => {
    const res = await f.execute({ sql: 'SELECT g FROM generate_series(1, 5000) g', row_limit: 4000 });
    expect(res.body.data).toMatchObject({ row_count: 4000, truncated: true, truncated_reason: 'row_limit' });
    expect(res.body.data.rows.at(-1)).toEqual([4000]);
    const all = await f.execute({ sql: 'SELECT g FROM generate_series(1, 3000) g', row_limit: 5000 });
    expect(all.body.data).toMatchObject({ row_count: 3000, truncated: false });
    expect(all.body.data.truncated_reason).toBeUndefined();
  });

  it('an error in a later batch is SQL_ERROR, and the session serves the next request', async () => {
    const res = await f.execute({ sql: 'SELECT CASE WHEN g = 1500 THEN 1 / 0 ELSE g END AS v FROM generate_series(1, 5000) g', row_limit: 5000 });
    expect(res.status).toBe(400);
    expect(res.body.error.details.sqlstate).toBe('22012');
    for (let i = 0; i < 3; i++) expect((await f.execute({ sql: 'SELECT 1 AS one' })).body.data.rows).toEqual([[1]]);
  });

  it('DML is run in full and counted, its RETURNING rows cut at the budget', async () => {
    const res = await f.execute({ sql: "INSERT INTO sink SELECT g FROM generate_series(1, 3000) g RETURNING id, repeat('y', 500) AS pad", row_limit: 10_000 });
    expect(res.body.data).toMatchObject({ affected_rows: 3000, truncated: true, truncated_reason: 'max_bytes' });
    expect((await sql<{ n: number }>(f.db.url, 'SELECT count(*)::int AS n FROM sink'))[0]!.n).toBe(3000);
  });
});
