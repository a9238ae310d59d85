import { requireDocumentConnection } from '@dbops/core/documents';
import { deleteDocument } from '@dbops/core/documents';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/** DELETE /api/v1/connections/{connection_id}/documents/{document_id}: the document and its chunks. */
export const handler = defineHandler('documents-delete', {
  params: z.object({ connection_id: z.uuid(), document_id: z.uuid() }),
  async handle({ params, auth, container }) {
    await requireDocumentConnection(domainDeps(container), auth.userId, params.connection_id, { active: false });
    await deleteDocument(container.store, auth.userId, params.connection_id, params.document_id);
    return ok({ id: params.document_id, deleted: true });
  },
});
