import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** One request the fake Stripe API received, with its form body decoded. */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  form: Record<string, string>;
}

export interface FakeStripe {
  /** e.g. http://127.0.0.1:43123, for STRIPE_API_BASE. */
  origin: string;
  requests: RecordedStripeRequest[];
  /** Receipt URL served for a payment intent id (GET /v1/payment_intents/:id). */
  receipts: Map<string, string>;
  /** When set, the next checkout request gets this status and Stripe-style error body. */
  failNext: { status: number; type: string; message: string } | undefined;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A local HTTP server speaking the two Stripe API calls billing makes (create a checkout
 * session, retrieve a payment intent), so the real `stripe` client can be pointed at it
 * through its host/port/protocol settings and the request it sends can be checked.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  let n = 0;
  const fake: Omit<FakeStripe, 'origin' | 'close'> = { requests: [], receipts: new Map(), failNext: undefined };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const text = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(text));
    fake.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, form });
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
      res.end(JSON.stringify(body));
    };

    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const fail = fake.failNext;
      if (fail) {
        fake.failNext = undefined;
        json(fail.status, { error: { type: fail.type, message: fail.message } });
        return;
      }
      const id = `cs_test_${Date.now().toString(36)}_${++n}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(form)) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m?.[1]) metadata[m[1]] = v;
      }
      json(200, {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        currency: form['line_items[0][price_data][currency]'],
        metadata,
        client_reference_id: form.client_reference_id,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        payment_intent: null,
      });
      return;
    }
    const pi = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && pi?.[1]) {
      const receipt = fake.receipts.get(pi[1]);
      if (receipt === undefined) {
        json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${pi[1]}'` } });
        return;
      }
      json(200, { id: pi[1], object: 'payment_intent', status: 'succeeded', latest_charge: { id: `ch_${pi[1]}`, object: 'charge', receipt_url: receipt } });
      return;
    }
    json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

export const TEST_SECRET_KEY = 'sk_test_dbops_fake_key_0123456789';
export const TEST_WEBHOOK_SECRET = 'whsec_dbops_test_0123456789abcdef';

/** Runtime environment with billing configured against `fake` through the secret store. */
export const billingEnv = (fake: FakeStripe): Record<string, string> => ({
  DBOPS_SECRET_STRIPE_SECRET_KEY: TEST_SECRET_KEY,
  DBOPS_SECRET_STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  STRIPE_API_BASE: fake.origin,
  DBOPS_BILLING_SUCCESS_URL: 'https://app.example.test/billing/done?session_id={CHECKOUT_SESSION_ID}',
  DBOPS_BILLING_CANCEL_URL: 'https://app.example.test/billing/cancelled',
});

/** Environment with every billing setting blanked, whatever the outer environment holds. */
export const noBillingEnv: Record<string, string> = {
  DBOPS_SECRET_STRIPE_SECRET_KEY: '',
  DBOPS_SECRET_STRIPE_WEBHOOK_SECRET: '',
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  STRIPE_API_BASE: '',
};

export interface SessionEventOptions {
  eventId?: string;
  type?: string;
  sessionId: string;
  userId: string;
  amountCents: number;
  paymentStatus?: string;
  paymentIntent?: string | null;
  currency?: string;
}

let seq = 0;

/** A Stripe `checkout.session.*` event as Stripe would post it (snapshot payload). */
export function sessionEvent(o: SessionEventOptions): Record<string, unknown> {
  const credits = `${o.amountCents / 100}.0000`;
  return {
    id: o.eventId ?? `evt_test_${Date.now().toString(36)}_${++seq}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: o.type ?? 'checkout.session.completed',
    data: {
      object: {
        id: o.sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: o.paymentStatus ?? 'paid',
        amount_total: o.amountCents,
        currency: o.currency ?? 'usd',
        client_reference_id: o.userId,
        metadata: { user_id: o.userId, credits, amount_cents: String(o.amountCents) },
        payment_intent: o.paymentIntent === undefined ? `pi_${o.sessionId}` : o.paymentIntent,
        customer_details: { email: 'buyer@example.test' },
      },
    },
  };
}

/** The `Stripe-Signature` header for `payload`, made by the stripe package's own test helper. */
export const signPayload = (payload: string, secret = TEST_WEBHOOK_SECRET, timestamp?: number): string =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
