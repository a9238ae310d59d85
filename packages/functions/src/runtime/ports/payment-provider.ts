import { type BillingSettings, loadBillingSettings } from '@dbops/core/billing';
import type { PaymentProvider } from '@dbops/core/billing';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';
import { domainDeps } from '../domain-deps';

/** A configured payment provider and the settings it was built from. */
export interface Payments {
  provider: PaymentProvider;
  settings: BillingSettings;
}

const slot = memoPer<Container, { current?: Promise<Payments> }>(() => ({}));

async function build(c: Container): Promise<Payments> {
  const settings = await loadBillingSettings(c.settings, domainDeps(c).secrets);
  // Loaded lazily so endpoints that never touch billing do not pay for the Stripe SDK.
  const { createStripePaymentProvider } = await import('@dbops/adapters/stripe/stripe-payment-provider');
  const provider = createStripePaymentProvider({
    secretKey: settings.secretKey,
    webhookSecret: settings.webhookSecret,
    ...(settings.apiBase ? { apiBase: settings.apiBase } : {}),
  });
  return { provider, settings };
}

/**
 * The payment provider of this process (Stripe), built once per container from the secret
 * store and the environment. Throws 503 BILLING_NOT_CONFIGURED while the Stripe settings are
 * missing; a failed attempt is not cached, so secrets added later are picked up.
 */
export function getPayments(c: Container): Promise<Payments> {
  const s = slot(c);
  s.current ??= build(c).catch((error: unknown) => {
    s.current = undefined;
    throw error;
  });
  return s.current;
}

/**
 * Log fields for a payment-provider failure: the error's class, type, status and code, never
 * its message, which can quote part of the API key.
 */
export function providerErrorFields(error: unknown): Record<string, unknown> {
  const outer = error as { code?: unknown; cause?: unknown } | undefined;
  const cause = (outer?.cause ?? error) as { type?: unknown; statusCode?: unknown; code?: unknown; name?: unknown } | undefined;
  return { code: outer?.code, cause_type: cause?.type ?? cause?.name, cause_status: cause?.statusCode, cause_code: cause?.code };
}
