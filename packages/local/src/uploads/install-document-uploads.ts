import { type DocumentBatchMessage, serializeDocumentBatchMessage } from '@dbops/core/documents';
import { collectRetiredGenerations, sweepExpiredBatches, unfinishedBatchIds } from '@dbops/core/documents';
import type { Container } from '@dbops/functions/runtime';
import { errorFields, logger } from '@dbops/functions/runtime';
import { installDocumentUploads } from '@dbops/functions/runtime';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InProcessSqsQueue } from '../queue/in-process-migration-queue';
import { LOCAL_UPLOAD_PREFIX, LocalUploadStorage } from './local-upload-storage';
import { createSlotUploadEndpoint } from './slot-upload-endpoint';

/** How often unconfirmed batches past their expiry are looked for. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Gives the local runtime upload slots: storage under DBOPS_HOME served by the slot upload
 * endpoint, and an in-process queue consumed by the same ingestion handler as the cloud's SQS
 * Lambda. Batches confirmed but left unfinished by a previous run of the process (stopped or
 * crashed mid-ingestion) are queued again; ingestion resumes from what they had staged, and
 * the chunks of generations nobody will read are deleted in short transactions.
 * Batches never confirmed are swept (files and rows) at start and every minute.
 * Returns the gateway's intercept for upload URLs, and the function that stops the sweeps.
 */
export function installLocalDocumentUploads(
  container: Container,
  origin: () => string,
): { intercept: (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined; stop(): void } {
  const storage = new LocalUploadStorage(container.settings.home, origin);
  const queue = new InProcessSqsQueue<DocumentBatchMessage>(
    { serialize: serializeDocumentBatchMessage, kind: 'document-batch', queueName: 'dbops-documents', functionName: 'documents-ingest' },
    {
      loadHandler: async () => (await import('@dbops/functions/executor/documents-ingest')).handler,
      background: container.background,
      onDropped: (message, error) => logger.error('document batch dropped after its last delivery', { batchId: message.batchId, ...errorFields(error) }),
    },
  );
  installDocumentUploads(container, { storage, queue });

  // Then the chunks a crash left invisible (replaced documents', abandoned generations') are deleted.
  const resume = unfinishedBatchIds(container.store)
    .then(async (ids) => {
      for (const batchId of ids) await queue.enqueue({ batchId });
      await collectRetiredGenerations(container.store);
    })
    .catch((error: unknown) => logger.warn('could not resume document batches', errorFields(error)));
  container.background.add(resume);
  void resume.finally(() => container.background.delete(resume));

  const sweep = (): void => {
    const swept = sweepExpiredBatches({ store: container.store, clock: container.clock, storage })
      .then((n) => {
        if (n > 0) logger.info('swept unconfirmed upload batches', { batches: n });
      })
      .catch((error: unknown) => logger.warn('could not sweep unconfirmed upload batches', errorFields(error)));
    container.background.add(swept);
    void swept.finally(() => container.background.delete(swept));
  };
  sweep();
  const sweeps = setInterval(sweep, SWEEP_EVERY_MS);
  sweeps.unref();

  const endpoint = createSlotUploadEndpoint({ store: container.store, clock: container.clock, storage });
  return {
    intercept: (req, res) => (req.url?.startsWith(LOCAL_UPLOAD_PREFIX) ? endpoint(req, res) : undefined),
    stop: () => clearInterval(sweeps),
  };
}
