import type { Queryable, Store } from '../../store/store';
import type { CheckoutSessionSnapshot, VerifiedPaymentEvent } from './payment-provider';

/** Events that report money received for a checkout session. */
export const PAYMENT_SUCCEEDED_EVENTS: ReadonlySet<string> = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** Events that end a session without money: the pending payment changes status only. */
const UNPAID_END_STATUS: Readonly<Record<string, 'expired' | 'failed'>> = {
  'checkout.session.expired': 'expired',
  'checkout.session.async_payment_failed': 'failed',
};

/**
 * What processing an event did:
 * - `applied`: credits were added (once per session, ever);
 * - `already_applied`: the session had completed through an earlier event;
 * - `recorded`: a status change without credits (unpaid completion, expiry, failed payment);
 * - `ignored`: an event type billing does not act on;
 * - `needs_review`: unknown session or a session that does not match our record; stored, not applied;
 * - `duplicate`: this event id was processed before; nothing changed.
 */
export type PaymentEventOutcome = 'applied' | 'already_applied' | 'recorded' | 'ignored' | 'needs_review' | 'duplicate';

export interface PaymentEventResult {
  outcome: PaymentEventOutcome;
  userId?: string;
  /** NUMERIC text, set when `applied`. */
  creditsAdded?: string;
  /** The balance after the credits, set when `applied`. */
  balance?: string;
  reviewReason?: string;
}

interface PaymentRow {
  id: string;
  user_id: string;
  status: string;
  amount_cents: number;
  currency: string;
  credits: string;
}

/** Whether the session disagrees with what we sold; a reason when it does. */
function mismatch(payment: PaymentRow, session: CheckoutSessionSnapshot): string | undefined {
  if (session.amountTotal !== Number(payment.amount_cents)) {
    return `amount_total ${String(session.amountTotal)} differs from the ${payment.amount_cents} cents recorded at checkout`;
  }
  if ((session.currency ?? '').toLowerCase() !== payment.currency) return `currency ${String(session.currency)} differs from ${payment.currency}`;
  if (session.metadata.user_id !== payment.user_id) return 'metadata user_id differs from the user who started the checkout';
  return undefined;
}

async function decide(tx: Queryable, event: VerifiedPaymentEvent, receiptUrl: string | null, now: Date): Promise<PaymentEventResult> {
  const session = event.session;
  const endStatus = UNPAID_END_STATUS[event.type];
  if (!session || (!PAYMENT_SUCCEEDED_EVENTS.has(event.type) && !endStatus)) return { outcome: 'ignored' };

  // The row lock serialises every event of one session, so two different events reporting
  // the same payment cannot both see it pending.
  const found = await tx.query<PaymentRow>(
    `SELECT id, user_id, status, amount_cents, currency, credits::text AS credits
       FROM payments WHERE session_id = $1 FOR UPDATE`,
    [session.sessionId],
  );
  const payment = found.rows[0];
  if (!payment) return { outcome: 'needs_review', reviewReason: 'unknown checkout session' };

  if (endStatus) {
    await tx.query(`UPDATE payments SET status = $2 WHERE id = $1 AND status = 'pending'`, [payment.id, endStatus]);
    return { outcome: 'recorded', userId: payment.user_id };
  }
  if (payment.status === 'completed') return { outcome: 'already_applied', userId: payment.user_id };
  // `completed` with `unpaid` is a delayed payment method; its async_payment_succeeded follows.
  if (session.paymentStatus !== 'paid') return { outcome: 'recorded', userId: payment.user_id };
  const reason = mismatch(payment, session);
  if (reason) return { outcome: 'needs_review', userId: payment.user_id, reviewReason: reason };

  await tx.query(
    `UPDATE payments
        SET status = 'completed', credits_added = credits, completed_at = $2::timestamptz,
            receipt_url = COALESCE($3, receipt_url), payment_intent_id = COALESCE($4, payment_intent_id),
            completed_by_event = $5
      WHERE id = $1`,
    [payment.id, now.toISOString(), receiptUrl ?? session.receiptUrl, session.paymentIntentId, event.id],
  );
  const credited = await tx.query<{ balance: string }>(
    `UPDATE users u SET balance = u.balance + p.credits
       FROM payments p
      WHERE p.id = $1 AND u.id = p.user_id
      RETURNING u.balance::text AS balance`,
    [payment.id],
  );
  return { outcome: 'applied', userId: payment.user_id, creditsAdded: payment.credits, balance: credited.rows[0]?.balance };
}

/**
 * Applies one verified event in ONE transaction: the event id is claimed first (a redelivery,
 * even a concurrent one, waits on that unique key and then finds it taken), then the payment
 * and the balance change together. Money is NUMERIC arithmetic in SQL only.
 */
export async function applyPaymentEvent(
  store: Store,
  provider: string,
  event: VerifiedPaymentEvent,
  options: { receiptUrl?: string | null; now: Date },
): Promise<PaymentEventResult> {
  return store.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO payment_events (event_id, provider, type, session_id, outcome, received_at)
       VALUES ($1, $2, $3, $4, 'recorded', $5::timestamptz)
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [event.id, provider, event.type, event.session?.sessionId ?? null, options.now.toISOString()],
    );
    if (claimed.rows.length === 0) return { outcome: 'duplicate' };
    const result = await decide(tx, event, options.receiptUrl ?? null, options.now);
    const storedOutcome = result.outcome === 'duplicate' ? 'recorded' : result.outcome;
    await tx.query(`UPDATE payment_events SET outcome = $2, review_reason = $3, payload = $4::jsonb WHERE event_id = $1`, [
      event.id,
      storedOutcome,
      result.reviewReason ?? null,
      result.outcome === 'needs_review' ? JSON.stringify(event.raw) : null,
    ]);
    return result;
  });
}

/** Whether an event id has been processed already (lets the caller skip provider look-ups). */
export async function isEventKnown(db: Queryable, eventId: string): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM payment_events WHERE event_id = $1', [eventId]);
  return res.rows.length > 0;
}
