import { listPayments } from '@dbops/core/billing';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/billing/payments (free): the user's payments, newest first (fields in docs/billing.md). */
export const handler = defineHandler('billing-payments', {
  async handle({ auth, container }) {
    const payments = await listPayments(container.store, auth.userId);
    return ok({ payments, count: payments.length });
  },
});
