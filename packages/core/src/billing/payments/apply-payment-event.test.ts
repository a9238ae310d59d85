import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../../../../test/support/scratch-database';
import { ensureUser } from '../../accounts/users';
import { migrate } from '../../store/migrate';
import { billingMigrations } from '../../store/migrations/billing';
import { foundationMigrations } from '../../store/migrations/foundation';
import { PgStore } from '../../store/pg-store';
import { PgliteStore } from '../../store/pglite-store';
import type { Store } from '../../store/store';
import { getBalance } from '../meter';
import { applyPaymentEvent } from './apply-payment-event';
import type { VerifiedPaymentEvent } from './payment-provider';

const subjects = [
  {
    name: 'PgliteStore',
    async open() {
      const store = await PgliteStore.open();
      return { store, cleanup: () => store.close() };
    },
  },
  {
    name: 'PgStore (real server, real concurrency)',
    async open() {
      const db = await createScratchDatabase('billing');
      const store = new PgStore({ connectionString: db.url, max: 20 });
      return {
        store,
        async cleanup() {
          await store.close();
          await db.drop();
        },
      };
    },
  },
];

describe.each(subjects)('applyPaymentEvent on $name', (subject) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  const now = new Date('2026-11-22T04:00:00Z');

  beforeAll(async () => {
    ({ store, cleanup } = await subject.open());
    await migrate(store, [...foundationMigrations, ...billingMigrations]);
  });
  afterAll(() => cleanup());

  async function pending(amountCents: number, credits: string): Promise<{ userId: string; sessionId: string }> {
    const userId = await ensureUser(store, 'test', randomUUID());
    const sessionId = `cs_${randomUUID()}`;
    await store.query(
      `INSERT INTO payments (id, user_id, provider, session_id, amount_cents, currency, credits) VALUES ($1, $2, 'stripe', $3, $4, 'usd', $5::numeric)`,
      [randomUUID(), userId, sessionId, amountCents, credits],
    );
    return { userId, sessionId };
  }

  const paid = (
    userId: string,
    sessionId: string,
    amountCents: number,
    id = `evt_${randomUUID()}`,
    type = 'checkout.session.completed',
  ): VerifiedPaymentEvent => ({
    id,
    type,
    session: {
      sessionId,
      paymentStatus: 'paid',
      amountTotal: amountCents,
      currency: 'usd',
      metadata: { user_id: userId },
      paymentIntentId: 'pi_1',
      receiptUrl: null,
    },
    raw: { id },
  });

  it('adds the credits and completes the payment in one go', async () => {
    const { userId, sessionId } = await pending(1000, '10.0000');
    const result = await applyPaymentEvent(store, 'stripe', paid(userId, sessionId, 1000), { receiptUrl: 'https://r/1', now });
    expect(result).toMatchObject({ outcome: 'applied', userId, creditsAdded: '10.0000', balance: '20.0000' });
    const row = await store.query<{ status: string; credits_added: string; receipt_url: string; completed_at: Date | string }>(
      'SELECT status, credits_added::text AS credits_added, receipt_url, completed_at FROM payments WHERE session_id = $1',
      [sessionId],
    );
    expect(row.rows[0]).toMatchObject({ status: 'completed', credits_added: '10.0000', receipt_url: 'https://r/1' });
    expect(new Date(row.rows[0]!.completed_at).toISOString()).toBe(now.toISOString());
  });

  it('keeps four decimal places exactly (no float drift over many payments)', async () => {
    const { userId } = await pending(500, '5.0000');
    await store.query('UPDATE users SET balance = 0.0010 WHERE id = $1', [userId]);
    for (let i = 0; i < 7; i++) {
      const sessionId = `cs_${randomUUID()}`;
      await store.query(
        `INSERT INTO payments (id, user_id, provider, session_id, amount_cents, currency, credits) VALUES ($1, $2, 'stripe', $3, 500, 'usd', 5.0000)`,
        [randomUUID(), userId, sessionId],
      );
      await applyPaymentEvent(store, 'stripe', paid(userId, sessionId, 500), { now });
    }
    expect((await getBalance(store, userId)).balance).toBe('35.0010');
  });

  it('lets exactly one of 20 concurrent deliveries of one event through', async () => {
    const { userId, sessionId } = await pending(5000, '50.0000');
    const event = paid(userId, sessionId, 5000);
    const results = await Promise.all(Array.from({ length: 20 }, () => applyPaymentEvent(store, 'stripe', event, { now })));
    expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(19);
    expect((await getBalance(store, userId)).balance).toBe('60.0000');
  });

  it('lets exactly one of 20 concurrent different events for one session add credits', async () => {
    const { userId, sessionId } = await pending(2500, '25.0000');
    const results = await Promise.all(Array.from({ length: 20 }, () => applyPaymentEvent(store, 'stripe', paid(userId, sessionId, 2500), { now })));
    expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'already_applied')).toHaveLength(19);
    expect((await getBalance(store, userId)).balance).toBe('35.0000');
    const events = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_events WHERE session_id = $1`, [sessionId]);
    expect(Number(events.rows[0]!.n)).toBe(20);
  });

  it('rolls the event claim back with the credits when the transaction fails', async () => {
    const { userId, sessionId } = await pending(500, '5.0000');
    // A balance that would overflow NUMERIC(20,4) makes the credit UPDATE fail inside the transaction.
    await store.query('UPDATE users SET balance = 9999999999999999.0000 WHERE id = $1', [userId]);
    const event = paid(userId, sessionId, 500);
    await expect(applyPaymentEvent(store, 'stripe', event, { now })).rejects.toThrow();
    const claimed = await store.query('SELECT 1 FROM payment_events WHERE event_id = $1', [event.id]);
    expect(claimed.rows).toHaveLength(0);
    const p = await store.query<{ status: string }>('SELECT status FROM payments WHERE session_id = $1', [sessionId]);
    expect(p.rows[0]!.status).toBe('pending');
    // Redelivery after the cause is fixed applies normally.
    await store.query('UPDATE users SET balance = 0 WHERE id = $1', [userId]);
    expect((await applyPaymentEvent(store, 'stripe', event, { now })).outcome).toBe('applied');
    expect((await getBalance(store, userId)).balance).toBe('5.0000');
  });
});
