import { CHECKOUT_AMOUNTS } from '@dbops/core/billing';
import { startCheckout } from '@dbops/core/billing';
import { AppError } from '@dbops/core/errors';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { logger } from '../runtime/logger';
import { getPayments, providerErrorFields } from '../runtime/ports/payment-provider';

const body = z.object({
  // int first, so a missing or non-integer amount says so rather than listing the allowed values
  amount_cents: z.int().pipe(z.literal(CHECKOUT_AMOUNTS)),
});

/** POST /api/v1/billing/checkout (free): a hosted Stripe checkout for 5, 10, 25 or 50 credits. */
export const handler = defineHandler('billing-checkout', {
  body,
  async handle({ body, auth, container }) {
    const { provider, settings } = await getPayments(container);
    try {
      const started = await startCheckout(container.store, provider, auth.userId, body.amount_cents, settings);
      logger.info('checkout started', { userId: auth.userId, session_id: started.session_id, amount_cents: body.amount_cents });
      return ok(started);
    } catch (error) {
      if (error instanceof AppError && error.cause !== undefined) logger.warn('checkout failed at the payment provider', providerErrorFields(error));
      throw error;
    }
  },
});
