import { createConnection } from '@dbops/core/connections';
import { DB_TYPES } from '@dbops/core/connections';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

const body = z.object({
  name: z.string().min(1).max(200),
  db_type: z.enum(DB_TYPES),
  connection_string: z.string().min(1).max(4096),
});

/** POST /api/v1/connections: checks that the database answers, stores the string encrypted, 201. */
export const handler = defineHandler('connections-create', {
  body,
  async handle({ body, auth, container }) {
    const view = await createConnection(domainDeps(container), auth.userId, {
      name: body.name,
      dbType: body.db_type,
      connectionString: body.connection_string,
    });
    return ok(view, 201);
  },
});
