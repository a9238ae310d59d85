import { requireDocumentConnection } from '@dbops/core/documents';
import { listDocuments } from '@dbops/core/documents';
import { defineHandler, uuidParam } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/** GET /api/v1/connections/{connection_id}/documents: every document, newest first. */
export const handler = defineHandler('documents-list', {
  params: uuidParam('connection_id'),
  async handle({ params, auth, container }) {
    await requireDocumentConnection(domainDeps(container), auth.userId, params.connection_id, { active: false });
    return ok(await listDocuments(container.store, auth.userId, params.connection_id));
  },
});
