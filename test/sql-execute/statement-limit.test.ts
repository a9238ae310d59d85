import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExecuteFixture, type ExecuteFixture } from '../support/sql-execute';

let f: ExecuteFixture;
beforeAll(async () => {
  f = await startExecuteFixture({ user: 'statement-limit-user' });
});
afterAll(() => f?.close());

const balance = async (): Promise<string> => (await f.t.request('GET', '/billing/balance', { apiKey: f.apiKey })).body.data.balance;

describe('statements per request', () => {
  it('/execute runs 1,000 statements and refuses 1,001 with 422 before the charge', async () => {
    const ok = await f.execute({ sql: 'SELECT 1;'.repeat(1000) });
    expect(ok.status).toBe(200);
    const before = await balance();
    for (const caller of ['human', 'agent']) {
      const res = await f.execute({ sql: 'SELECT 1;'.repeat(1001), caller });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        {
          loc: ['body', 'sql'],
          msg: expect.stringContaining('at most 1000 statements, not 1001'),
          type: 'too_many_statements',
          input: null,
          ctx: { max_statements: 1000, statements: 1001 },
        },
      ]);
    }
    expect(await balance()).toBe(before);
  });

  it('the issue’s 20,000 and 100,000 statements answer at once', async () => {
    for (const n of [20_000, 100_000]) {
      const started = Date.now();
      const res = await f.execute({ sql: 'SELECT 1;'.repeat(n), caller: 'agent' });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].ctx).toEqual({ max_statements: 1000, statements: n });
      // Not a timing assertion on speed, a guard against the old minutes-long freeze.
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  });

  it('comments and empty statements do not count', async () => {
    const res = await f.execute({ sql: `SELECT 1;${';'.repeat(5000)}${'-- ;\n'.repeat(100)}` });
    expect(res.status).toBe(200);
  });

  it('migration analysis and execution refuse over 10,000 statements', async () => {
    const sql = 'CREATE TABLE IF NOT EXISTS t1 (id int);'.repeat(10_001);
    const analyzed = await f.t.request('POST', `/connections/${f.connectionId}/migrations/analyze`, { apiKey: f.apiKey, body: { sql } });
    expect(analyzed.status).toBe(422);
    expect(analyzed.body.detail[0]).toMatchObject({ loc: ['body', 'sql'], type: 'too_many_statements', ctx: { max_statements: 10_000, statements: 10_001 } });
    const executed = await f.t.request('POST', '/migrations/execute', { apiKey: f.apiKey, body: { sql, connection_id: f.connectionId, approval_token: 'x' } });
    expect(executed.status).toBe(422);
    expect(executed.body.detail[0].type).toBe('too_many_statements');
  });
});
