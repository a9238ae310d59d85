import { getRequest } from '@dbops/core/migration-execution';
import { defineHandler, uuidParam } from '../http/define-handler';
import { bare } from '../http/responses';
import { settleLostRequests } from '../runtime/settle-lost-requests';

/** GET /api/v1/migrations/requests/{request_id}: the bare request record; 404 for another user's id. */
export const handler = defineHandler('migrations-request-get', {
  params: uuidParam('request_id'),
  async handle({ params, auth, container }) {
    await settleLostRequests(container, auth.userId, { requestId: params.request_id });
    return bare(await getRequest(container.store, auth.userId, params.request_id));
  },
});
