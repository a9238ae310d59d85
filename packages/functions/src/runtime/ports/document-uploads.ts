import type { IngestQueue } from '@dbops/core/documents';
import type { UploadStorage } from '@dbops/core/documents';
import { AppError } from '@dbops/core/errors';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

const installed = new WeakMap<Container, { storage: UploadStorage; queue: IngestQueue }>();

/** The local runtime installs its upload storage (files under DBOPS_HOME) and in-process ingest queue here. */
export function installDocumentUploads(container: Container, ports: { storage: UploadStorage; queue: IngestQueue }): void {
  installed.set(container, ports);
}

const s3Storage = memoPer<Container, UploadStorage>((c) => {
  const { bucket, s3Endpoint } = c.settings.documentUploads;
  // Loaded lazily so that handlers which never touch uploads do not pay for the S3 client.
  const storage = import('@dbops/adapters/aws/s3-upload-storage').then((m) => m.createS3UploadStorage(bucket!, m.createS3Client(s3Endpoint)));
  return {
    name: 's3',
    createTarget: async (slot) => (await storage).createTarget(slot),
    exists: async (key) => (await storage).exists(key),
    read: async (key) => (await storage).read(key),
    remove: async (keys) => (await storage).remove(keys),
  };
});

const sqsQueue = memoPer<Container, IngestQueue>((c) => {
  const url = c.settings.documentUploads.queueUrl!;
  const queue = import('@dbops/adapters/aws/sqs-ingest-queue').then((m) => m.createSqsIngestQueue(url));
  return { name: 'sqs', enqueue: async (message) => (await queue).enqueue(message) };
});

const unconfigured = (what: string): never => {
  throw new AppError('SERVICE_UNAVAILABLE', `Upload slots are not configured (${what}).`);
};

/** S3 when `DBOPS_UPLOAD_BUCKET` is set (cloud), otherwise what the local runtime installed. */
export function getUploadStorage(container: Container): UploadStorage {
  if (container.settings.documentUploads.bucket) return s3Storage(container);
  return installed.get(container)?.storage ?? unconfigured('DBOPS_UPLOAD_BUCKET');
}

/** SQS when `DBOPS_DOCUMENT_QUEUE_URL` is set (cloud), otherwise the local in-process queue. */
export function getIngestQueue(container: Container): IngestQueue {
  if (container.settings.documentUploads.queueUrl) return sqsQueue(container);
  return installed.get(container)?.queue ?? unconfigured('DBOPS_DOCUMENT_QUEUE_URL');
}
