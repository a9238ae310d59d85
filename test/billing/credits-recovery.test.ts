import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEnv, type FakeStripe, noBillingEnv, sessionEvent, signPayload, startFakeStripe } from '../support/billing';
import { registerConnection } from '../support/connections';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('402 once credits run out, recovery after a paid webhook', () => {
  let t: TestRuntime;
  let fake: FakeStripe;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let jwt: string;
  let apiKey: string;
  let connectionId: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestRuntime({ env: { ...noBillingEnv, ...billingEnv(fake) } });
    db = await createScratchDatabase('billing402');
    jwt = await t.jwt('spender');
    apiKey = await t.apiKey('spender');
    connectionId = (await registerConnection(t, 'spender', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await db.drop();
  });

  const execute = () => t.request('POST', '/execute', { apiKey, body: { connection_id: connectionId, sql: 'SELECT 1 AS one' } });

  it('charges until the balance is below the price, then answers 402 {detail} and charges nothing', async () => {
    const users = await t.runtime.container.store.query<{ id: string }>("SELECT id FROM users WHERE subject = 'spender'");
    await t.runtime.container.store.query('UPDATE users SET balance = 0.0070 WHERE id = $1', [users.rows[0]!.id]);

    const paidFor = await execute();
    expect(paidFor.status).toBe(200);
    expect(paidFor.headers.get('x-credits-remaining')).toBe('0.0020');
    expect(paidFor.body.data.rows).toEqual([[1]]);

    const refused = await execute();
    expect(refused.status).toBe(402);
    expect(Object.keys(refused.body)).toEqual(['detail']);
    expect(refused.body.detail).toMatch(/insufficient credits/i);

    const balance = await t.request('GET', '/billing/balance', { jwt });
    expect(balance.status).toBe(200);
    expect(balance.body.data).toMatchObject({ balance: '0.0020', total_requests: 1 });
  });

  it('recovers after checkout and a paid checkout.session.completed', async () => {
    const checkout = await t.request('POST', '/billing/checkout', { apiKey, body: { amount_cents: 500 } });
    expect(checkout.status).toBe(200);
    const sessionId = checkout.body.data.session_id as string;
    const userId = fake.requests.at(-1)!.form['metadata[user_id]']!;

    // Still refused while the payment is pending.
    expect((await execute()).status).toBe(402);

    const payload = JSON.stringify(sessionEvent({ sessionId, userId, amountCents: 500 }));
    const hook = await t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload) },
    });
    expect(hook.status).toBe(200);
    expect((await t.request('GET', '/billing/balance', { jwt })).body.data.balance).toBe('5.0020');

    const again = await execute();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-credits-remaining')).toBe('4.9970');
  });
});
