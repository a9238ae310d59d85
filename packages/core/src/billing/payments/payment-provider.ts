/**
 * Port: the hosted payment provider (Stripe in production, a Stripe-compatible server in tests).
 * The domain only sees these shapes; the adapter maps the provider's objects onto them.
 */

/** What the service asks the provider to sell. */
export interface CheckoutSessionRequest {
  userId: string;
  amountCents: number;
  currency: string;
  /** Credits bought, NUMERIC text ("10.0000"); travels in the session's metadata. */
  credits: string;
  /** Shown on the hosted page. */
  productName: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  sessionId: string;
  /** The hosted checkout page the user is sent to. */
  url: string;
}

/** A checkout session as a verified event carries it. */
export interface CheckoutSessionSnapshot {
  sessionId: string;
  /** `paid`, `unpaid` or `no_payment_required` (Stripe's values, passed through). */
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
  metadata: Readonly<Record<string, string>>;
  paymentIntentId: string | null;
  /** Set when the event already carried the charge (expanded objects); otherwise looked up. */
  receiptUrl: string | null;
}

/** A webhook event whose signature has been verified. */
export interface VerifiedPaymentEvent {
  id: string;
  type: string;
  /** Present for `checkout.session.*` events. */
  session: CheckoutSessionSnapshot | null;
  /** The event as parsed JSON, kept only when an event needs a human to review it. */
  raw: unknown;
}

export interface PaymentProvider {
  readonly name: string;
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /**
   * Verifies `signatureHeader` against the exact bytes received and parses the event.
   * Throws AppError WEBHOOK_SIGNATURE_INVALID on a missing, wrong or stale signature.
   */
  verifyEvent(rawBody: Uint8Array, signatureHeader: string | undefined, receivedAt: Date): VerifiedPaymentEvent;
  /** The receipt of a payment intent's charge, or null when the provider has none (yet). */
  receiptUrl(paymentIntentId: string): Promise<string | null>;
}
