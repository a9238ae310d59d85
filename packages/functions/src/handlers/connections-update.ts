import { updateConnection } from '@dbops/core/connections';
import { DB_TYPES } from '@dbops/core/connections';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

const body = z.object({
  name: z.string().min(1).max(200).optional(),
  db_type: z.enum(DB_TYPES).optional(),
  connection_string: z.string().min(1).max(4096).optional(),
});

/** PATCH /api/v1/connections/{connection_id}: rename or re-point (re-checked and re-encrypted). */
export const handler = defineHandler('connections-update', {
  params: uuidParam('connection_id'),
  body,
  async handle({ params, body, auth, container }) {
    const view = await updateConnection(domainDeps(container), auth.userId, params.connection_id, {
      name: body.name,
      dbType: body.db_type,
      connectionString: body.connection_string,
    });
    return ok(view);
  },
});
