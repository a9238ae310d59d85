import { revokeApiKey } from '@dbops/core/accounts';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';

/** DELETE /api/v1/api-keys/{key_id}: soft delete; the key fails on its next use. */
export const handler = defineHandler('api-keys-revoke', {
  params: uuidParam('key_id'),
  async handle({ params, auth, container }) {
    await revokeApiKey(container.store, auth.userId, params.key_id);
    return ok({ id: params.key_id, revoked: true });
  },
});
