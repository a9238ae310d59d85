import { introspectConnection, summarizeSnapshot } from '@dbops/core/introspection';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/** POST /api/v1/connections/{connection_id}/introspect (billable): a new schema snapshot, summarized. */
export const handler = defineHandler('connections-introspect', {
  params: uuidParam('connection_id'),
  async handle({ params, auth, container }) {
    const snapshot = await introspectConnection(domainDeps(container), auth.userId, params.connection_id);
    container.afterIntrospection?.({ userId: auth.userId, connectionId: params.connection_id, snapshot });
    return ok(summarizeSnapshot(snapshot));
  },
});
