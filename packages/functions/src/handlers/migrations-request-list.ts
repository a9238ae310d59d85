import { loadConnectionTarget } from '@dbops/core/connections';
import { listRequests } from '@dbops/core/migration-execution';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { settleLostRequests } from '../runtime/settle-lost-requests';

const query = z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) });

/** GET /api/v1/connections/{connection_id}/migrations/requests: the connection's requests, newest first. */
export const handler = defineHandler('migrations-request-list', {
  params: uuidParam('connection_id'),
  query,
  async handle({ params, query, auth, container }) {
    await loadConnectionTarget(domainDeps(container), auth.userId, params.connection_id);
    await settleLostRequests(container, auth.userId, { connectionId: params.connection_id });
    return ok(await listRequests(container.store, auth.userId, params.connection_id, query.limit));
  },
});
