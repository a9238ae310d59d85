import { provisionDatabase } from '@dbops/core/provisioning';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getSharedInstance } from '../runtime/ports/shared-instance';

const body = z.object({ name: z.string().min(1).max(200) });

/**
 * POST /api/v1/provision: a schema and login role on the shared instance, registered as a
 * connection; 201 with the tenant's `connection_string`, shown this once only.
 */
export const handler = defineHandler('provision-create', {
  body,
  async handle({ body, auth, container }) {
    const created = await provisionDatabase({ ...domainDeps(container), sharedInstance: getSharedInstance(container) }, auth.userId, body.name);
    return ok(created, 201);
  },
});
