import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEnv, type FakeStripe, noBillingEnv, signPayload, startFakeStripe, TEST_SECRET_KEY } from '../support/billing';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('billing without Stripe settings', () => {
  let t: TestRuntime;
  let jwt: string;
  let fake: FakeStripe;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestRuntime({ env: { ...noBillingEnv, STRIPE_API_BASE: fake.origin } });
    jwt = await t.jwt('nobill');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers checkout with 503 BILLING_NOT_CONFIGURED naming what is missing', async () => {
    const res = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 1000 } });
    expect(res.status).toBe(503);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('BILLING_NOT_CONFIGURED');
    expect(res.body.error.message).toContain('STRIPE_SECRET_KEY');
    expect(res.body.error.message).toContain('STRIPE_WEBHOOK_SECRET');
    expect(fake.requests).toHaveLength(0);
  });

  it('answers the webhook with 503 too, and changes nothing', async () => {
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'checkout.session.completed', data: { object: {} } });
    const res = await t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload) },
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('BILLING_NOT_CONFIGURED');
  });

  it('keeps the rest of the service working', async () => {
    expect((await t.request('GET', '/billing/balance', { jwt })).body.data.balance).toBe('10.0000');
    const payments = await t.request('GET', '/billing/payments', { jwt });
    expect(payments.status).toBe(200);
    expect(payments.body).toEqual({ success: true, data: { payments: [], count: 0 }, error: null });
    expect((await t.request('GET', '/api-keys', { jwt })).status).toBe(200);
  });

  it('still validates the amount first (422, not 503)', async () => {
    const res = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 123 } });
    expect(res.status).toBe(422);
  });

  it('picks up secrets written to the local secret files later, without a restart', async () => {
    const dir = path.join(t.runtime.home, 'secrets');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'stripe-secret-key'), `${TEST_SECRET_KEY}\n`);
    await writeFile(path.join(dir, 'stripe-webhook-secret'), 'whsec_from_file');
    const res = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: 500 } });
    expect(res.status).toBe(200);
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_SECRET_KEY}`);
  });
});

describe('POST /billing/checkout against a Stripe-compatible server', () => {
  let t: TestRuntime;
  let fake: FakeStripe;
  let alice: string;
  let aliceId: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestRuntime({ env: { ...noBillingEnv, ...billingEnv(fake) } });
    alice = await t.jwt('alice');
    await t.request('GET', '/billing/balance', { jwt: alice });
    const row = await t.runtime.container.store.query<{ id: string }>("SELECT id FROM users WHERE subject = 'alice'");
    aliceId = row.rows[0]!.id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each([500, 1000, 2500, 5000])('opens a session for %i cents and sends amount, currency, metadata and return URLs', async (amount) => {
    const before = fake.requests.length;
    const res = await t.request('POST', '/billing/checkout', { jwt: alice, body: { amount_cents: amount } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.error).toBeNull();
    expect(Object.keys(res.body.data).sort()).toEqual(['checkout_url', 'session_id']);
    const { checkout_url, session_id } = res.body.data;
    expect(checkout_url).toBe(`https://checkout.stripe.test/c/pay/${session_id}`);

    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_SECRET_KEY}`);
    expect(sent.headers['idempotency-key']).toBeTruthy();
    const credits = `${amount / 100}.0000`;
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(amount),
      'metadata[user_id]': aliceId,
      'metadata[credits]': credits,
      'metadata[amount_cents]': String(amount),
      'payment_intent_data[metadata][user_id]': aliceId,
      client_reference_id: aliceId,
      success_url: 'https://app.example.test/billing/done?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example.test/billing/cancelled',
    });

    const payments = await t.request('GET', '/billing/payments', { jwt: alice });
    expect(payments.body.data.payments[0]).toMatchObject({
      session_id,
      amount_cents: amount,
      currency: 'usd',
      credits,
      credits_added: '0.0000',
      status: 'pending',
      receipt_url: null,
      completed_at: null,
    });
  });

  it('does not add credits at checkout', async () => {
    const res = await t.request('GET', '/billing/balance', { jwt: alice });
    expect(res.body.data.balance).toBe('10.0000');
  });

  it.each([
    ['a disallowed amount', { amount_cents: 750 }, 'enum', 'Input should be 500, 1000, 2500 or 5000'],
    ['zero', { amount_cents: 0 }, 'enum', 'Input should be 500, 1000, 2500 or 5000'],
    ['a negative allowed value', { amount_cents: -500 }, 'enum', 'Input should be 500, 1000, 2500 or 5000'],
    ['a string', { amount_cents: '1000' }, 'float_type', 'Input should be a valid number'],
    ['a fraction', { amount_cents: 1000.5 }, 'int_type', 'Input should be a valid integer'],
  ])('rejects %s with the 422 validation body and calls nobody', async (_label, body, type, msg) => {
    const before = fake.requests.length;
    const res = await t.request('POST', '/billing/checkout', { jwt: alice, body });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'amount_cents'], type, input: body.amount_cents, msg })]);
    expect(fake.requests.length).toBe(before);
  });

  it('rejects a missing amount and a non-JSON body with 422', async () => {
    const missing = await t.request('POST', '/billing/checkout', { jwt: alice, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'amount_cents'], type: 'missing' });
    const broken = await t.request('POST', '/billing/checkout', { jwt: alice, body: '{"amount_cents": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(422);
    expect(broken.body.detail[0].type).toBe('json_invalid');
  });

  it('needs credentials', async () => {
    const res = await t.request('POST', '/billing/checkout', { body: { amount_cents: 500 } });
    expect(res.status).toBe(401);
  });

  it('answers 502 PAYMENT_PROVIDER_FAILED when Stripe fails, and records nothing', async () => {
    const before = (await t.request('GET', '/billing/payments', { jwt: alice })).body.data.count;
    fake.failNext = { status: 400, type: 'invalid_request_error', message: 'boom' };
    const res = await t.request('POST', '/billing/checkout', { jwt: alice, body: { amount_cents: 500 } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('PAYMENT_PROVIDER_FAILED');
    expect(res.text).not.toContain(TEST_SECRET_KEY);
    expect((await t.request('GET', '/billing/payments', { jwt: alice })).body.data.count).toBe(before);
  });

  it('answers 503 when Stripe rejects the secret key', async () => {
    fake.failNext = { status: 401, type: 'invalid_request_error', message: `Invalid API Key provided: ${TEST_SECRET_KEY}` };
    const res = await t.request('POST', '/billing/checkout', { jwt: alice, body: { amount_cents: 500 } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('BILLING_NOT_CONFIGURED');
    expect(res.text).not.toContain(TEST_SECRET_KEY);
  });

  it("lists only the caller's own payments", async () => {
    const bob = await t.jwt('bob-checkout');
    const res = await t.request('GET', '/billing/payments', { jwt: bob });
    expect(res.body.data).toEqual({ payments: [], count: 0 });
    const mine = await t.request('GET', '/billing/payments', { jwt: alice });
    expect(mine.body.data.count).toBeGreaterThanOrEqual(4);
  });
});

describe('plain STRIPE_* environment names', () => {
  it('configure billing as well as the secret store does', async () => {
    const fake = await startFakeStripe();
    const t = await startTestRuntime({
      env: { ...noBillingEnv, STRIPE_SECRET_KEY: 'sk_test_plain_env', STRIPE_WEBHOOK_SECRET: 'whsec_plain', STRIPE_API_BASE: fake.origin },
    });
    try {
      const res = await t.request('POST', '/billing/checkout', { jwt: await t.jwt('plain'), body: { amount_cents: 2500 } });
      expect(res.status).toBe(200);
      expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk_test_plain_env');
      // Local default return URLs when none are configured.
      expect(fake.requests[0]?.form.success_url).toBe('http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}');
    } finally {
      await t.close();
      await fake.close();
    }
  });

  it('refuses an STRIPE_API_BASE with a path instead of silently ignoring it', async () => {
    const t = await startTestRuntime({
      env: { ...noBillingEnv, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:9/stripe' },
    });
    try {
      const res = await t.request('POST', '/billing/checkout', { jwt: await t.jwt('badbase'), body: { amount_cents: 500 } });
      expect(res.status).toBe(503);
      expect(res.body.error.message).toContain('STRIPE_API_BASE');
    } finally {
      await t.close();
    }
  });
});
