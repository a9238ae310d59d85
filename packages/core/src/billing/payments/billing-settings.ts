import type { ServiceSettings } from '../../config';
import { AppError } from '../../errors/app-error';
import type { SecretStore } from '../../secrets/secret-store';

/** Secret-store names of the Stripe credentials (locally `DBOPS_SECRET_STRIPE_SECRET_KEY` etc.). */
export const STRIPE_SECRET_KEY_SECRET = 'stripe-secret-key';
export const STRIPE_WEBHOOK_SECRET_SECRET = 'stripe-webhook-secret';

/** Local-mode defaults of the return URLs; Stripe replaces `{CHECKOUT_SESSION_ID}`. */
export const DEFAULT_SUCCESS_URL = 'http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}';
export const DEFAULT_CANCEL_URL = 'http://localhost:3000/billing/cancel';

/** Everything buying credits needs; see docs/billing.md for each setting. */
export interface BillingSettings {
  /** Stripe secret API key: secret `stripe-secret-key`, else env `STRIPE_SECRET_KEY`. */
  secretKey: string;
  /** Webhook signing secret (`whsec_...`): secret `stripe-webhook-secret`, else env `STRIPE_WEBHOOK_SECRET`. */
  webhookSecret: string;
  /**
   * `STRIPE_API_BASE`: origin of a Stripe-compatible API (e.g. `http://127.0.0.1:12111`)
   * used instead of api.stripe.com. Unset: the real Stripe API.
   */
  apiBase: URL | undefined;
  /** `DBOPS_BILLING_SUCCESS_URL`; required in cloud mode, {@link DEFAULT_SUCCESS_URL} locally. */
  successUrl: string;
  /** `DBOPS_BILLING_CANCEL_URL`; required in cloud mode, {@link DEFAULT_CANCEL_URL} locally. */
  cancelUrl: string;
}

const notConfigured = (what: string): AppError =>
  new AppError('BILLING_NOT_CONFIGURED', `Billing is not configured on this server: ${what}. Every other endpoint keeps working.`);

function httpUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw notConfigured(`${name} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notConfigured(`${name} must be an http or https URL`);
  return url;
}

function returnUrl(settings: ServiceSettings, value: string | undefined, name: string, fallback: string): string {
  if (value) {
    httpUrl(value, name);
    return value;
  }
  if (settings.mode === 'cloud') throw notConfigured(`${name} is not set`);
  return fallback;
}

/**
 * Reads the billing settings, throwing 503 BILLING_NOT_CONFIGURED (naming what is missing,
 * never a value) when buying credits cannot work. Both Stripe secrets are required: a checkout
 * without a verifiable webhook would take money without ever adding the credits.
 */
export async function loadBillingSettings(settings: ServiceSettings, secrets: SecretStore): Promise<BillingSettings> {
  const env = settings.billing;
  const secretKey = (await secrets.get(STRIPE_SECRET_KEY_SECRET)) || env.stripeSecretKey;
  const webhookSecret = (await secrets.get(STRIPE_WEBHOOK_SECRET_SECRET)) || env.stripeWebhookSecret;
  const missing = [
    ...(secretKey ? [] : ['the Stripe secret key (STRIPE_SECRET_KEY)']),
    ...(webhookSecret ? [] : ['the Stripe webhook signing secret (STRIPE_WEBHOOK_SECRET)']),
  ];
  if (!secretKey || !webhookSecret) throw notConfigured(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`);

  let apiBase: URL | undefined;
  if (env.stripeApiBase) {
    apiBase = httpUrl(env.stripeApiBase, 'STRIPE_API_BASE');
    // The Stripe client only takes a host, port and protocol; a path would be silently dropped.
    if (apiBase.pathname !== '/' || apiBase.search) throw notConfigured('STRIPE_API_BASE must be an origin without a path');
  }
  return {
    secretKey: secretKey.trim(),
    webhookSecret: webhookSecret.trim(),
    apiBase,
    successUrl: returnUrl(settings, env.successUrl, 'DBOPS_BILLING_SUCCESS_URL', DEFAULT_SUCCESS_URL),
    cancelUrl: returnUrl(settings, env.cancelUrl, 'DBOPS_BILLING_CANCEL_URL', DEFAULT_CANCEL_URL),
  };
}
