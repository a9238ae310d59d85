import { revokeApiKey } from '@dbops/core/accounts';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { requestCachesOf } from '../runtime/request-caches';

/** DELETE /api/v1/api-keys/{key_id}: soft delete; the key fails on its next use. */
export const handler = defineHandler('api-keys-revoke', {
  params: uuidParam('key_id'),
  async handle({ params, auth, container }) {
    await revokeApiKey(container.store, auth.userId, params.key_id);
    // The authorizer of this process may remember the key: it must fail on its next request.
    requestCachesOf(container).apiKeys.forgetKey(params.key_id);
    return ok({ id: params.key_id, revoked: true });
  },
});
