import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../store/store';
import { type CheckoutAmount, CHECKOUT_CURRENCY, creditsFor } from './credit-packs';
import type { PaymentProvider } from './payment-provider';

/** Where the hosted page sends the user back to. */
export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
}

/** The body of POST /billing/checkout (spec section 4). */
export interface CheckoutStarted {
  checkout_url: string;
  session_id: string;
}

/**
 * Opens a hosted checkout for `amountCents` and records it as a pending payment. The URL is
 * handed out only after the record exists, so every session a user can pay for is one the
 * webhook will recognise.
 */
export async function startCheckout(
  db: Queryable,
  provider: PaymentProvider,
  userId: string,
  amountCents: CheckoutAmount,
  urls: CheckoutUrls,
): Promise<CheckoutStarted> {
  const credits = creditsFor(amountCents);
  const session = await provider.createCheckoutSession({
    userId,
    amountCents,
    currency: CHECKOUT_CURRENCY,
    credits,
    productName: `dbops credits (${credits.replace(/0+$/, '').replace(/\.$/, '')} USD)`,
    successUrl: urls.successUrl,
    cancelUrl: urls.cancelUrl,
  });
  await db.query(
    `INSERT INTO payments (id, user_id, provider, session_id, amount_cents, currency, credits)
     VALUES ($1, $2, $3, $4, $5, $6, $7::numeric)`,
    [randomUUID(), userId, provider.name, session.sessionId, amountCents, CHECKOUT_CURRENCY, credits],
  );
  return { checkout_url: session.url, session_id: session.sessionId };
}
