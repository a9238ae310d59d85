import { listConnections } from '@dbops/core/connections';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

const query = z.object({ include_inactive: z.enum(['true', 'false']).optional() });

/** GET /api/v1/connections: the caller's active connections (all with `?include_inactive=true`). */
export const handler = defineHandler('connections-list', {
  query,
  async handle({ query, auth, container }) {
    return ok(await listConnections(container, auth.userId, { includeInactive: query.include_inactive === 'true' }));
  },
});
