import { requireDocumentConnection } from '@dbops/core/documents';
import { confirmUploadBatch } from '@dbops/core/documents';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getIngestQueue, getUploadStorage } from '../runtime/ports/document-uploads';

/**
 * POST /api/v1/connections/{connection_id}/documents/batches/{batch_id}/confirm: every file is
 * uploaded; queue the batch for ingestion and answer 202 with its status.
 */
export const handler = defineHandler('documents-batch-confirm', {
  params: z.object({ connection_id: z.uuid(), batch_id: z.uuid() }),
  async handle({ params, auth, container }) {
    const deps = domainDeps(container);
    await requireDocumentConnection(deps, auth.userId, params.connection_id, { active: true });
    const batch = await confirmUploadBatch(
      { ...deps, storage: getUploadStorage(container), queue: getIngestQueue(container) },
      { userId: auth.userId, connectionId: params.connection_id, batchId: params.batch_id },
    );
    return ok(batch, 202);
  },
});
