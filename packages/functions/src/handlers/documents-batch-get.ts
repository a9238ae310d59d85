import { requireDocumentConnection } from '@dbops/core/documents';
import { getUploadBatch } from '@dbops/core/documents';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/** GET /api/v1/connections/{connection_id}/documents/batches/{batch_id}: status, result and rejections of an upload batch. */
export const handler = defineHandler('documents-batch-get', {
  params: z.object({ connection_id: z.uuid(), batch_id: z.uuid() }),
  async handle({ params, auth, container }) {
    await requireDocumentConnection(domainDeps(container), auth.userId, params.connection_id, { active: false });
    return ok(await getUploadBatch(container.store, auth.userId, params.connection_id, params.batch_id));
  },
});
