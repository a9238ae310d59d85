import { createApiKey } from '@dbops/core/accounts/api-keys';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

const body = z.object({ name: z.string().min(1).max(200) });

/** POST /api/v1/api-keys: 201 with the raw key, shown this once. */
export const handler = defineHandler('api-keys-create', {
  body,
  async handle({ body, auth, container }) {
    return ok(await createApiKey(container.store, auth.userId, body.name), 201);
  },
});
