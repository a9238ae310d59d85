import { getConnection } from '@dbops/core/connections';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/connections/{connection_id}: one connection, deactivated ones included. */
export const handler = defineHandler('connections-get', {
  params: uuidParam('connection_id'),
  async handle({ params, auth, container }) {
    return ok(await getConnection(container, auth.userId, params.connection_id));
  },
});
