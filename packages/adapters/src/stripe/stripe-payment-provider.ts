import { AppError } from '@dbops/core/errors';
import type { CheckoutSession, CheckoutSessionRequest, CheckoutSessionSnapshot, PaymentProvider, VerifiedPaymentEvent } from '@dbops/core/billing';
import Stripe from 'stripe';

/** Options of {@link createStripePaymentProvider}. */
export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Origin of a Stripe-compatible API to use instead of api.stripe.com (tests, local mocks). */
  apiBase?: URL;
  /** Per-request timeout to the Stripe API. Default 10 s, well inside API Gateway's 30 s. */
  timeoutMs?: number;
  /** Maximum age of a webhook signature in seconds. Default Stripe's 300. */
  toleranceSeconds?: number;
}

const providerFailed = (message: string, cause: unknown): AppError => new AppError('PAYMENT_PROVIDER_FAILED', message, { cause });

const isStripeError = (e: unknown): e is Stripe.errors.StripeError => e instanceof Stripe.errors.StripeError;

function snapshot(session: Stripe.Checkout.Session): CheckoutSessionSnapshot {
  const intent = session.payment_intent;
  const charge = intent !== null && typeof intent === 'object' ? intent.latest_charge : null;
  return {
    sessionId: session.id,
    paymentStatus: session.payment_status,
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
    metadata: session.metadata ?? {},
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
    receiptUrl: charge !== null && typeof charge === 'object' ? (charge.receipt_url ?? null) : null,
  };
}

/** Why a signature failed, in words that reveal nothing of the secret. */
function signatureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/tolerance/i.test(message)) return 'the signature timestamp is too old';
  if (/unable to extract timestamp and signatures/i.test(message)) return 'the Stripe-Signature header is malformed';
  return 'no signature matches the body';
}

/** Stripe behind the PaymentProvider port. */
export function createStripePaymentProvider(options: StripeProviderOptions): PaymentProvider {
  const base = options.apiBase;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2, // retried requests reuse one idempotency key, so a retry never opens two sessions
    timeout: options.timeoutMs ?? 10_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? ('https' as const) : ('http' as const),
        }
      : {}),
  });

  return {
    name: 'stripe',

    async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
      const metadata = { user_id: request.userId, credits: request.credits, amount_cents: String(request.amountCents) };
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [
            { quantity: 1, price_data: { currency: request.currency, unit_amount: request.amountCents, product_data: { name: request.productName } } },
          ],
          client_reference_id: request.userId,
          metadata,
          payment_intent_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        });
      } catch (error) {
        if (error instanceof Stripe.errors.StripeAuthenticationError) {
          throw new AppError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this server: Stripe rejected the configured secret key.', {
            cause: error,
          });
        }
        throw providerFailed('The payment provider could not open a checkout session; try again shortly.', error);
      }
      if (!session.url || !session.id) throw providerFailed('The payment provider answered without a checkout URL.', undefined);
      return { sessionId: session.id, url: session.url };
    },

    verifyEvent(rawBody: Uint8Array, signatureHeader: string | undefined, receivedAt: Date): VerifiedPaymentEvent {
      if (!signatureHeader) throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'Missing Stripe-Signature header.');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength),
          signatureHeader,
          options.webhookSecret,
          options.toleranceSeconds ?? 300,
          undefined,
          receivedAt.getTime(),
        );
      } catch (error) {
        // constructEvent parses the JSON only after the signature verified: signed, yet not
        // JSON, is nothing Stripe would send. Any other failure (including header shapes the
        // library trips over) means the signature did not verify.
        if (error instanceof SyntaxError) throw new AppError('BAD_REQUEST', 'The event body is not valid JSON.');
        throw new AppError('WEBHOOK_SIGNATURE_INVALID', `Invalid Stripe-Signature: ${signatureReason(error)}.`);
      }
      if (event === null || typeof event !== 'object' || typeof event.id !== 'string' || typeof event.type !== 'string') {
        throw new AppError('BAD_REQUEST', 'The event has no id or type.');
      }
      const object = (event.data as { object?: { object?: unknown } } | undefined)?.object;
      const session = event.type.startsWith('checkout.session.') && object?.object === 'checkout.session' ? snapshot(object as Stripe.Checkout.Session) : null;
      return { id: event.id, type: event.type, session, raw: event };
    },

    async receiptUrl(paymentIntentId: string): Promise<string | null> {
      try {
        const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
        const charge = intent.latest_charge;
        return charge !== null && typeof charge === 'object' ? (charge.receipt_url ?? null) : null;
      } catch (error) {
        if (isStripeError(error) && error.statusCode === 404) return null;
        throw providerFailed('The payment provider could not return the receipt.', error);
      }
    },
  };
}
