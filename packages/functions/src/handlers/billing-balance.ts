import { getBalance } from '@dbops/core/billing';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/billing/balance (free). */
export const handler = defineHandler('billing-balance', {
  async handle({ auth, container }) {
    return ok(await getBalance(container.store, auth.userId));
  },
});
