import { requireDocumentConnection } from '@dbops/core/documents';
import { bidiFilenameIssue, createUploadBatch } from '@dbops/core/documents';
import { RequestValidationError } from '@dbops/core/errors';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { sanitizeFilename } from '../http/multipart-files';
import { ok } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getUploadStorage } from '../runtime/ports/document-uploads';

// Limits are checked per file by the domain (so the 51st file or an 11 MB file is named in the
// rejection); the schema only bounds the request itself.
const body = z.object({
  files: z
    .array(
      z.object({
        filename: z.string().max(1024),
        size_bytes: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
        content_type: z.string().max(255).optional(),
      }),
    )
    .min(1)
    .max(1000),
});

/**
 * POST /api/v1/connections/{connection_id}/documents/batches: opens an upload batch and answers
 * one upload slot per file (where and how to send it). Then: send each file to its slot,
 * confirm the batch, poll it.
 */
export const handler = defineHandler('documents-batch-create', {
  params: uuidParam('connection_id'),
  body,
  async handle({ params, body, auth, container }) {
    const bidi = body.files.flatMap((f, i) => bidiFilenameIssue(f.filename, ['body', 'files', i, 'filename']) ?? []);
    if (bidi.length > 0) throw new RequestValidationError(bidi);
    const deps = domainDeps(container);
    await requireDocumentConnection(deps, auth.userId, params.connection_id, { active: true });
    const batch = await createUploadBatch(
      { ...deps, storage: getUploadStorage(container) },
      { userId: auth.userId, connectionId: params.connection_id, files: body.files, sanitizeFilename },
    );
    return ok(batch, 201);
  },
});
