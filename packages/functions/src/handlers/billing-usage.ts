import { listUsage } from '@dbops/core/billing';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/billing/usage (free): the last 100 billable requests, newest first. */
export const handler = defineHandler('billing-usage', {
  async handle({ auth, container }) {
    const usage = await listUsage(container.store, auth.userId);
    return ok({ usage, count: usage.length });
  },
});
