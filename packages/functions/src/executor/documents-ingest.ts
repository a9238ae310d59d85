import { ingestUploadBatch } from '@dbops/core/documents';
import { parseDocumentBatchMessage } from '@dbops/core/documents';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getContainer } from '../runtime/container';
import { domainDeps } from '../runtime/domain-deps';
import { errorFields, logger } from '../runtime/logger';
import { getUploadStorage } from '../runtime/ports/document-uploads';

/**
 * Document ingestion: one Lambda subscribed to the document queue (SQS, batch size 1,
 * `ReportBatchItemFailures`); the local runtime's in-process queue calls this same handler.
 * A batch already finished is acknowledged without effect; a failure of the store or the
 * storage is reported back for redelivery, and ingestion resumes from what was staged.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const container = await getContainer();
  const deps = { ...domainDeps(container), storage: getUploadStorage(container) };
  const batchItemFailures: SQSBatchItemFailure[] = [];
  for (const record of event.Records) {
    const message = parseDocumentBatchMessage(record.body);
    if (!message) {
      logger.warn('dropped an unreadable document batch message', { messageId: record.messageId });
      continue;
    }
    try {
      const disposition = await ingestUploadBatch(deps, message.batchId);
      logger.info('document batch handled', { messageId: record.messageId, batchId: message.batchId, disposition });
    } catch (error) {
      logger.error('document batch failed; it will be redelivered', { messageId: record.messageId, batchId: message.batchId, ...errorFields(error) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
