import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { billingEnv, type FakeStripe, noBillingEnv, sessionEvent, signPayload, startFakeStripe, TEST_WEBHOOK_SECRET } from '../support/billing';
import { type ApiResponse, startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('POST /billing/webhook', () => {
  let t: TestRuntime;
  let fake: FakeStripe;
  let user = 0;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestRuntime({ env: { ...noBillingEnv, ...billingEnv(fake) } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A fresh user with a pending checkout of `amount` cents. */
  async function checkout(amount = 1000): Promise<{ jwt: string; userId: string; sessionId: string }> {
    const jwt = await t.jwt(`buyer-${++user}`);
    const res = await t.request('POST', '/billing/checkout', { jwt, body: { amount_cents: amount } });
    expect(res.status).toBe(200);
    const userId = fake.requests.at(-1)!.form['metadata[user_id]']!;
    return { jwt, userId, sessionId: res.body.data.session_id };
  }

  const deliver = (payload: string, signature?: string): Promise<ApiResponse> =>
    t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
    });
  const deliverSigned = (event: unknown): Promise<ApiResponse> => {
    const payload = JSON.stringify(event, null, 2);
    return deliver(payload, signPayload(payload));
  };

  const balance = async (jwt: string): Promise<string> => (await t.request('GET', '/billing/balance', { jwt })).body.data.balance;
  const payment = async (jwt: string, sessionId: string) =>
    (await t.request('GET', '/billing/payments', { jwt })).body.data.payments.find((p: { session_id: string }) => p.session_id === sessionId);
  const storedEvents = async (): Promise<number> =>
    Number((await t.runtime.container.store.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_events')).rows[0]!.n);

  beforeEach(() => {
    fake.failNext = undefined;
  });

  it('adds the credits of a paid checkout.session.completed once, with the receipt URL', async () => {
    const { jwt, userId, sessionId } = await checkout(2500);
    fake.receipts.set(`pi_${sessionId}`, `https://pay.stripe.test/receipts/${sessionId}`);
    const res = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 2500 }));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.outcome).toBe('applied');
    expect(await balance(jwt)).toBe('35.0000');
    const p = await payment(jwt, sessionId);
    expect(p).toMatchObject({
      amount_cents: 2500,
      credits: '25.0000',
      credits_added: '25.0000',
      status: 'completed',
      receipt_url: `https://pay.stripe.test/receipts/${sessionId}`,
    });
    expect(new Date(p.completed_at).toISOString()).toBe(p.completed_at);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payment_intents/pi_${sessionId}` });
  });

  it.each([
    [500, '15.0000'],
    [1000, '20.0000'],
    [5000, '60.0000'],
  ])('adds the matching credits for %i cents', async (amount, expected) => {
    const { jwt, userId, sessionId } = await checkout(amount);
    const res = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: amount }));
    expect(res.body.data.outcome).toBe('applied');
    expect(await balance(jwt)).toBe(expected);
  });

  it('still adds the credits when the receipt cannot be fetched', async () => {
    const { jwt, userId, sessionId } = await checkout(500);
    const res = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 500, paymentIntent: 'pi_unknown_to_stripe' }));
    expect(res.body.data.outcome).toBe('applied');
    expect(await balance(jwt)).toBe('15.0000');
    expect((await payment(jwt, sessionId)).receipt_url).toBeNull();
  });

  describe('signature failures answer 400 and change nothing', () => {
    let jwt: string;
    let userId: string;
    let sessionId: string;
    let payload: string;

    beforeAll(async () => {
      ({ jwt, userId, sessionId } = await checkout(5000));
      payload = JSON.stringify(sessionEvent({ sessionId, userId, amountCents: 5000 }));
    });

    const expectUnchanged = async (res: ApiResponse, events: number): Promise<void> => {
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
      expect(res.text).not.toContain(TEST_WEBHOOK_SECRET);
      expect(await balance(jwt)).toBe('10.0000');
      expect((await payment(jwt, sessionId)).status).toBe('pending');
      expect(await storedEvents()).toBe(events);
    };

    it('a tampered body', async () => {
      const events = await storedEvents();
      const signature = signPayload(payload);
      const tampered = payload.replace('"amount_total":5000', '"amount_total":50000');
      expect(tampered).not.toBe(payload);
      await expectUnchanged(await deliver(tampered, signature), events);
    });

    it('the same JSON re-serialised (the raw bytes are what is signed)', async () => {
      const events = await storedEvents();
      const pretty = JSON.stringify(JSON.parse(payload), null, 2);
      await expectUnchanged(await deliver(pretty, signPayload(payload)), events);
    });

    it('a signature made with another secret', async () => {
      const events = await storedEvents();
      await expectUnchanged(await deliver(payload, signPayload(payload, 'whsec_someone_else')), events);
    });

    it('an old timestamp, even with the right secret', async () => {
      const events = await storedEvents();
      const res = await deliver(payload, signPayload(payload, TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600));
      expect(res.body.error.message).toContain('too old');
      await expectUnchanged(res, events);
    });

    it('a missing or malformed header', async () => {
      const events = await storedEvents();
      const missing = await deliver(payload);
      expect(missing.body.error.message).toContain('Missing Stripe-Signature');
      await expectUnchanged(missing, events);
      await expectUnchanged(await deliver(payload, 'not-a-signature'), events);
      await expectUnchanged(await deliver(payload, 't=abc,v1='), events);
    });

    it('and the genuine event still applies afterwards', async () => {
      const res = await deliver(payload, signPayload(payload));
      expect(res.body.data.outcome).toBe('applied');
      expect(await balance(jwt)).toBe('60.0000');
    });
  });

  it('answers 400 BAD_REQUEST to a correctly signed body that is not an event', async () => {
    const events = await storedEvents();
    const notJson = 'this is not json';
    const res = await deliver(notJson, signPayload(notJson));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    const noId = JSON.stringify({ object: 'event', data: {} });
    expect((await deliver(noId, signPayload(noId))).status).toBe(400);
    expect(await storedEvents()).toBe(events);
  });

  it('keeps non-ASCII bytes intact, so their signature verifies', async () => {
    const { jwt, userId, sessionId } = await checkout(500);
    const event = sessionEvent({ sessionId, userId, amountCents: 500 });
    (event.data as { object: Record<string, unknown> }).object.customer_details = { name: 'Zoë Ångström 払い 💳' };
    const res = await deliverSigned(event);
    expect(res.status).toBe(200);
    expect(await balance(jwt)).toBe('15.0000');
  });

  it('verifies a body the gateway hands over base64-encoded (non-text content type)', async () => {
    const { jwt, userId, sessionId } = await checkout(500);
    const payload = JSON.stringify(sessionEvent({ sessionId, userId, amountCents: 500 }));
    const res = await t.request('POST', '/billing/webhook', {
      body: payload,
      headers: { 'content-type': 'application/octet-stream', 'stripe-signature': signPayload(payload) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('applied');
    expect(await balance(jwt)).toBe('15.0000');
  });

  it('a duplicate delivery answers 200 and adds nothing', async () => {
    const { jwt, userId, sessionId } = await checkout(1000);
    const event = sessionEvent({ sessionId, userId, amountCents: 1000 });
    const first = await deliverSigned(event);
    const second = await deliverSigned(event);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.data.outcome, second.body.data.outcome]).toEqual(['applied', 'duplicate']);
    expect(await balance(jwt)).toBe('20.0000');
  });

  it('concurrent duplicate deliveries add the credits exactly once', async () => {
    const { jwt, userId, sessionId } = await checkout(1000);
    const event = sessionEvent({ sessionId, userId, amountCents: 1000 });
    const results = await Promise.all(Array.from({ length: 12 }, () => deliverSigned(event)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const outcomes = results.map((r) => r.body.data.outcome as string);
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(11);
    expect(await balance(jwt)).toBe('20.0000');
  });

  it('different events for one session (concurrently) add the credits once', async () => {
    const { jwt, userId, sessionId } = await checkout(2500);
    const events = [
      sessionEvent({ sessionId, userId, amountCents: 2500 }),
      sessionEvent({ sessionId, userId, amountCents: 2500 }),
      sessionEvent({ sessionId, userId, amountCents: 2500, type: 'checkout.session.async_payment_succeeded' }),
    ];
    const results = await Promise.all(events.map((e) => deliverSigned(e)));
    const outcomes = results.map((r) => r.body.data.outcome as string).sort();
    expect(outcomes).toEqual(['already_applied', 'already_applied', 'applied']);
    expect(await balance(jwt)).toBe('35.0000');
  });

  it('answers 200 to other event types and ignores them', async () => {
    const { jwt } = await checkout(500);
    const res = await deliverSigned({
      id: 'evt_customer_created_1',
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('ignored');
    expect(await balance(jwt)).toBe('10.0000');
  });

  it('stores an event for an unknown session for review and adds nothing, even when its metadata names a user', async () => {
    const { jwt, userId } = await checkout(500);
    const event = sessionEvent({ sessionId: 'cs_test_never_created_here', userId, amountCents: 5000 });
    const res = await deliverSigned(event);
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('needs_review');
    expect(await balance(jwt)).toBe('10.0000');
    const stored = await t.runtime.container.store.query<{ outcome: string; review_reason: string; payload: { id: string } }>(
      'SELECT outcome, review_reason, payload FROM payment_events WHERE event_id = $1',
      [event.id],
    );
    expect(stored.rows[0]).toMatchObject({ outcome: 'needs_review', review_reason: 'unknown checkout session', payload: { id: event.id } });
  });

  it('stores a session that disagrees with the checkout (amount, user) for review', async () => {
    const { jwt, userId, sessionId } = await checkout(500);
    const other = await checkout(500);
    const wrongAmount = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 5000 }));
    expect(wrongAmount.body.data.outcome).toBe('needs_review');
    const wrongUser = await deliverSigned(sessionEvent({ sessionId, userId: other.userId, amountCents: 500 }));
    expect(wrongUser.body.data.outcome).toBe('needs_review');
    expect(await balance(jwt)).toBe('10.0000');
    expect(await balance(other.jwt)).toBe('10.0000');
    expect((await payment(jwt, sessionId)).status).toBe('pending');
  });

  it('waits for the money: an unpaid completion adds nothing, async_payment_succeeded then does', async () => {
    const { jwt, userId, sessionId } = await checkout(1000);
    const unpaid = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 1000, paymentStatus: 'unpaid' }));
    expect(unpaid.body.data.outcome).toBe('recorded');
    expect(await balance(jwt)).toBe('10.0000');
    expect((await payment(jwt, sessionId)).status).toBe('pending');
    const paid = await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 1000, type: 'checkout.session.async_payment_succeeded' }));
    expect(paid.body.data.outcome).toBe('applied');
    expect(await balance(jwt)).toBe('20.0000');
  });

  it('marks expired and failed sessions without adding credits', async () => {
    const a = await checkout(500);
    const b = await checkout(500);
    await deliverSigned(sessionEvent({ ...a, amountCents: 500, type: 'checkout.session.expired', paymentStatus: 'unpaid' }));
    await deliverSigned(sessionEvent({ ...b, amountCents: 500, type: 'checkout.session.async_payment_failed', paymentStatus: 'unpaid' }));
    expect((await payment(a.jwt, a.sessionId)).status).toBe('expired');
    expect((await payment(b.jwt, b.sessionId)).status).toBe('failed');
    expect(await balance(a.jwt)).toBe('10.0000');
    expect(await balance(b.jwt)).toBe('10.0000');
  });

  it('shows a completed payment only to its owner', async () => {
    const { jwt, userId, sessionId } = await checkout(500);
    await deliverSigned(sessionEvent({ sessionId, userId, amountCents: 500 }));
    const stranger = await t.jwt('stranger');
    const theirs = await t.request('GET', '/billing/payments', { jwt: stranger });
    expect(theirs.body.data.payments).toEqual([]);
    expect((await payment(jwt, sessionId)).status).toBe('completed');
  });
});
