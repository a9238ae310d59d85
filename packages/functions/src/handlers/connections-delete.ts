import { deactivateConnection } from '@dbops/core/connections';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';

/** DELETE /api/v1/connections/{connection_id}: deactivates (soft delete) and answers the connection. */
export const handler = defineHandler('connections-delete', {
  params: uuidParam('connection_id'),
  async handle({ params, auth, container }) {
    return ok(await deactivateConnection(container, auth.userId, params.connection_id));
  },
});
