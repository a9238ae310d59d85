import { ingestDocuments } from '@dbops/core/documents';
import { requireDocumentConnection } from '@dbops/core/documents';
import { MAX_FILE_BYTES, MAX_FILES_PER_BATCH } from '@dbops/core/documents';
import { defineHandler, uuidParam } from '../http/define-handler';
import { readMultipartFiles } from '../http/multipart-files';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';

/**
 * POST /api/v1/connections/{connection_id}/documents/upload: multipart, repeated `files` parts.
 * The whole batch is checked, extracted and embedded first, then stored in one transaction;
 * a file of the same name replaces the stored one.
 */
export const handler = defineHandler('documents-upload', {
  params: uuidParam('connection_id'),
  async handle({ params, auth, container, event }) {
    const deps = domainDeps(container);
    await requireDocumentConnection(deps, auth.userId, params.connection_id, { active: true });
    const files = await readMultipartFiles(event, { field: 'files', maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES_PER_BATCH });
    // Extraction ends a second before the gateway's window does, so a file that cannot be read in
    // time is refused by name (422 extraction_timeout) and its threads are freed, instead of the
    // request timing out with a 500 while the threads go on reading.
    const endsAt = performance.now() + Math.max(1, container.settings.gatewayTimeoutSeconds - 1) * 1000;
    const result = await ingestDocuments(deps, { userId: auth.userId, connectionId: params.connection_id, files, endsAt });
    return ok(result);
  },
});
