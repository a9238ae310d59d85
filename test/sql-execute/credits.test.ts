import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExecuteFixture, startExecuteFixture } from '../support/sql-execute';

/** Setup starts a runtime and creates and registers a database: slow when the machine is shared. */
const SETUP_TIMEOUT_MS = 180_000;

let f: ExecuteFixture;
let jwt: string;

beforeAll(async () => {
  f = await startExecuteFixture({ user: 'credits-user' });
  jwt = await f.t.jwt(f.user);
}, SETUP_TIMEOUT_MS);
afterAll(() => f.close());

async function userId(): Promise<string> {
  const res = await f.t.runtime.container.store.query<{ id: string }>(`SELECT user_id AS id FROM connections WHERE id = $1`, [f.connectionId]);
  return res.rows[0]!.id;
}

describe('credits through POST /execute', () => {
  it('lets exactly as many concurrent requests through as the balance pays for', async () => {
    const id = await userId();
    await f.t.runtime.container.store.query('UPDATE users SET balance = 0.0500 WHERE id = $1', [id]);
    // A fresh user: registration and key creation are free, so the usage listing starts empty.
    expect((await f.t.request('GET', '/billing/usage', { jwt })).body.data.usage).toEqual([]);

    const results = await Promise.all(Array.from({ length: 50 }, () => f.execute({ sql: 'SELECT 1' })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of ok) expect(r.body.data.rows).toEqual([[1]]);
    for (const r of refused) {
      expect(Object.keys(r.body)).toEqual(['detail']);
      expect(typeof r.body.detail).toBe('string');
      expect(r.body.detail.length).toBeGreaterThan(0);
    }
    const remaining = ok.map((r) => r.headers.get('x-credits-remaining')).sort();
    expect(remaining).toEqual(['0.0000', '0.0050', '0.0100', '0.0150', '0.0200', '0.0250', '0.0300', '0.0350', '0.0400', '0.0450']);

    const balance = await f.t.request('GET', '/billing/balance', { jwt });
    expect(balance.status).toBe(200);
    expect(balance.body.data.balance).toBe('0.0000');

    const usage = await f.t.request('GET', '/billing/usage', { jwt });
    expect(usage.status).toBe(200);
    const records: Array<Record<string, unknown>> = usage.body.data.usage;
    expect(records).toHaveLength(10);
    for (const r of records) expect(r).toMatchObject({ path: '/api/v1/execute', method: 'POST', cost: '0.0050', created_at: expect.any(String) });

    // Free endpoints keep working with no credits left.
    expect((await f.t.request('GET', '/billing/balance', { jwt })).status).toBe(200);
    expect((await f.t.request('GET', '/api-keys', { jwt })).status).toBe(200);
    // A validation error is not charged (and with no credits it is still a 422, not a 402).
    const invalid = await f.execute({ sql: 'SELECT 1', row_limit: 0 });
    expect(invalid.status).toBe(422);
    const still = await f.execute({ sql: 'SELECT 1' });
    expect(still.status).toBe(402);
  });

  it('does not charge a validation error when credits remain', async () => {
    const id = await userId();
    await f.t.runtime.container.store.query('UPDATE users SET balance = 1.0000 WHERE id = $1', [id]);
    expect((await f.execute({ sql: 'SELECT 1', timeout_seconds: 500 })).status).toBe(422);
    expect((await f.t.request('GET', '/billing/balance', { jwt })).body.data.balance).toBe('1.0000');
    const charged = await f.execute({ sql: 'SELECT 1' });
    expect(charged.headers.get('x-credits-remaining')).toBe('0.9950');
  });
});
