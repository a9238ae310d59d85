import { listApiKeys } from '@dbops/core/accounts';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/api-keys: the caller's active keys, prefix only. */
export const handler = defineHandler('api-keys-list', {
  async handle({ auth, container }) {
    return ok(await listApiKeys(container.store, auth.userId));
  },
});
