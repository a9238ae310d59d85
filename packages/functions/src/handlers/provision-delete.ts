import { deleteProvisionedDatabase } from '@dbops/core/provisioning';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getSharedInstance } from '../runtime/ports/shared-instance';

/**
 * DELETE /api/v1/provision/{provision_id}: drops schema and role (sessions terminated first),
 * deactivates the connection and answers the record with status `deleted`. 404 for anyone else's.
 */
export const handler = defineHandler('provision-delete', {
  params: uuidParam('provision_id'),
  async handle({ params, auth, container }) {
    const deps = { ...domainDeps(container), sharedInstance: getSharedInstance(container) };
    return ok(await deleteProvisionedDatabase(deps, auth.userId, params.provision_id));
  },
});
