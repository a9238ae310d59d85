import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../support/scratch-database';
import { startExecuteFixture, type ExecuteFixture } from '../support/sql-execute';
import type { ApiResponse } from '../support/test-runtime';

/**
 * The gateway answers no request after DBOPS_GATEWAY_TIMEOUT_SECONDS (30 s in the cloud; 6 s
 * here to keep the test short). A statement must be cancelled and rolled back before the
 * service answers, inside that window, whatever timeout_seconds asked for.
 */
const GATEWAY_SECONDS = 6;

let f: ExecuteFixture;
beforeAll(async () => {
  f = await startExecuteFixture({
    user: 'gateway-timeout-user',
    setupSql: 'CREATE TABLE w (id int)',
    env: { DBOPS_GATEWAY_TIMEOUT_SECONDS: String(GATEWAY_SECONDS) },
  });
});
afterAll(() => f?.close());

const rows = async (): Promise<number> => (await sql<{ n: number }>(f.db.url, 'SELECT count(*)::int AS n FROM w'))[0]!.n;
const running = async (marker: string): Promise<unknown[]> =>
  sql(f.db.url, 'SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()', [`%${marker}%`]);

async function timed(body: Record<string, unknown>): Promise<{ res: ApiResponse; ms: number }> {
  const started = Date.now();
  const res = await f.execute(body);
  return { res, ms: Date.now() - started };
}

describe('POST /execute within the gateway window', () => {
  it('a human write past the window is cancelled and rolled back before the answer, with TIMEOUT', async () => {
    const { res, ms } = await timed({ sql: 'INSERT INTO w SELECT 1 FROM pg_sleep(20) /* gw-1 */', timeout_seconds: 120 });
    expect(ms).toBeLessThan(GATEWAY_SECONDS * 1000);
    expect(res.status).toBe(408);
    expect(res.body.error.code).toBe('TIMEOUT');
    expect(res.body.error.details).toMatchObject({ timeout_seconds: 120, capped: true });
    expect(res.body.error.details.applied_timeout_seconds).toBeLessThanOrEqual(GATEWAY_SECONDS - 4);
    // At the moment of the answer nothing runs any more, and nothing was written.
    expect(await running('gw-1')).toEqual([]);
    expect(await rows()).toBe(0);
  });

  it('also when the caller turned statement_timeout off (the watchdog cancels)', async () => {
    const { res, ms } = await timed({ sql: 'SET statement_timeout = 0; INSERT INTO w SELECT 1 FROM pg_sleep(20) /* gw-2 */', timeout_seconds: 60 });
    expect(ms).toBeLessThan(GATEWAY_SECONDS * 1000);
    expect(res.status).toBe(408);
    expect(res.body.error.code).toBe('TIMEOUT');
    expect(await running('gw-2')).toEqual([]);
    expect(await rows()).toBe(0);
  });

  it('also when the statement traps every cancel: the backend is terminated and gone before the answer', async () => {
    const trap = `DO $$ BEGIN INSERT INTO w VALUES (1); LOOP BEGIN PERFORM pg_sleep(20); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$ /* gw-3 */`;
    const { res, ms } = await timed({ sql: trap, timeout_seconds: 30 });
    expect(ms).toBeLessThan(GATEWAY_SECONDS * 1000);
    expect(res.status).toBe(408);
    expect(res.body.error.code).toBe('TIMEOUT');
    expect(await running('gw-3')).toEqual([]);
    expect(await rows()).toBe(0);
    // The service still works for the next request (the terminated session was not reused).
    expect((await f.execute({ sql: 'SELECT 1 AS one' })).body.data.rows).toEqual([[1]]);
  });

  it('an agent statement too', async () => {
    const { res, ms } = await timed({ sql: 'SELECT pg_sleep(20) /* gw-4 */', caller: 'agent', timeout_seconds: 45 });
    expect(ms).toBeLessThan(GATEWAY_SECONDS * 1000);
    expect(res.status).toBe(408);
    expect(res.body.error.details.capped).toBe(true);
    expect(await running('gw-4')).toEqual([]);
  });

  it('says so in a success when timeout_seconds asked for more than the gateway allows', async () => {
    const capped = await f.execute({ sql: 'SELECT 1 AS one', timeout_seconds: 120 });
    expect(capped.status).toBe(200);
    expect(capped.body.data.rows).toEqual([[1]]);
    expect(capped.body.data.timeout).toMatchObject({ requested_seconds: 120, capped: true, reason: expect.stringContaining(`after ${GATEWAY_SECONDS} s`) });
    expect(capped.body.data.timeout.applied_seconds).toBeLessThanOrEqual(GATEWAY_SECONDS - 4);
    // Within the window nothing is said, and a statement finishing in time is unaffected.
    const within = await f.execute({ sql: 'SELECT pg_sleep(0.2)', timeout_seconds: 5 });
    expect(within.status).toBe(200);
    expect(within.body.data.timeout).toBeUndefined();
  });
});
