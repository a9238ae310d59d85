import { listProvisionedDatabases } from '@dbops/core/provisioning';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';

/** GET /api/v1/provision: `{databases, count, limit}` of the caller's active managed databases. */
export const handler = defineHandler('provision-list', {
  async handle({ auth, container }) {
    return ok(await listProvisionedDatabases(container, auth.userId));
  },
});
