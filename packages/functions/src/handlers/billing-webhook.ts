import { applyPaymentEvent, isEventKnown, PAYMENT_SUCCEEDED_EVENTS } from '@dbops/core/billing';
import type { PaymentProvider, VerifiedPaymentEvent } from '@dbops/core/billing';
import { definePublicHandler } from '../http/define-handler';
import { bodyBytes, header } from '../http/event';
import { ok } from '../http/responses';
import { logger } from '../runtime/logger';
import { getPayments, providerErrorFields } from '../runtime/ports/payment-provider';

/**
 * The receipt of a paid session, looked up before the transaction so no network call holds a
 * row lock. A failed look-up costs only the receipt link, never the credits.
 */
async function receiptFor(provider: PaymentProvider, event: VerifiedPaymentEvent): Promise<string | null> {
  const session = event.session;
  if (!session || !PAYMENT_SUCCEEDED_EVENTS.has(event.type) || session.paymentStatus !== 'paid') return null;
  if (session.receiptUrl) return session.receiptUrl;
  if (!session.paymentIntentId) return null;
  try {
    return await provider.receiptUrl(session.paymentIntentId);
  } catch (error) {
    logger.warn('receipt look-up failed; payment recorded without receipt_url', { event_id: event.id, ...providerErrorFields(error) });
    return null;
  }
}

/**
 * POST /api/v1/billing/webhook (no user auth): Stripe events, verified against the raw body
 * bytes. Always 200 once verified, so Stripe stops retrying; what happened is in the logs and
 * in `payment_events`.
 */
export const handler = definePublicHandler('billing-webhook', {
  async handle({ event: request, container }) {
    const { provider } = await getPayments(container);
    const event = provider.verifyEvent(bodyBytes(request), header(request, 'stripe-signature'), container.clock.now());

    const known = await isEventKnown(container.store, event.id);
    const receiptUrl = known ? null : await receiptFor(provider, event);
    const result = await applyPaymentEvent(container.store, provider.name, event, { receiptUrl, now: container.clock.now() });

    const fields = { event_id: event.id, type: event.type, session_id: event.session?.sessionId, outcome: result.outcome };
    if (result.outcome === 'needs_review') logger.warn('payment event stored for review', { ...fields, reason: result.reviewReason });
    else if (result.outcome === 'ignored') logger.info('payment event type ignored', fields);
    else logger.info('payment event processed', { ...fields, userId: result.userId, credits_added: result.creditsAdded });

    return ok({ received: true, event_id: event.id, outcome: result.outcome });
  },
});
