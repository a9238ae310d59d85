import { type ServiceRuntime, functionArgs } from './function-defaults';
import { createJobQueue } from './queue';
import { DOCUMENTS_INGEST_MODULE, installFor, lambdaHandler } from './route-plan';
import { UNCONFIRMED_UPLOAD_DAYS, UNCONFIRMED_UPLOADS_PREFIX, UPLOAD_CORS } from './upload-bucket';

/** Longest one batch's ingestion may run (50 files of 10 MB; Lambda's maximum is 15 minutes). */
export const INGEST_TIMEOUT_MINUTES = 14;

/** Receives per batch message before it goes to the dead-letter queue. */
export const INGEST_MAX_RECEIVES = 3;

/**
 * Upload slots in the cloud: the bucket files are sent to (private, S3-managed encryption, a
 * lifecycle rule deleting files of batches never confirmed), the queue confirmed batches go
 * through with its dead-letter queue, and the ingestion Lambda subscribed to it.
 */
export function createDocumentUploads(key: aws.kms.Key, alarmTopic: aws.sns.Topic) {
  const bucket = new sst.aws.Bucket('DocumentUploads', {
    cors: {
      maxAge: UPLOAD_CORS.maxAge,
      allowOrigins: [...UPLOAD_CORS.allowOrigins],
      allowMethods: [...UPLOAD_CORS.allowMethods],
      allowHeaders: [...UPLOAD_CORS.allowHeaders],
      exposeHeaders: [...UPLOAD_CORS.exposeHeaders],
    },
    // Ingestion deletes a batch's files once it is done; this catches the ones never confirmed
    // (and any left by a crash between commit and delete).
    lifecycle: [{ id: 'delete-unconfirmed-uploads', prefix: UNCONFIRMED_UPLOADS_PREFIX, expiresIn: `${UNCONFIRMED_UPLOAD_DAYS} day` }],
  });

  // Longer than the ingestion timeout, so a batch still being ingested is not handed out again.
  const { queue, deadLetter } = createJobQueue('Document', {
    key,
    alarmTopic,
    consumerTimeoutMinutes: INGEST_TIMEOUT_MINUTES,
    maxReceives: INGEST_MAX_RECEIVES,
    alarmDescription: 'Document batches reached the dead-letter queue (stuck in ingesting)',
  });
  return { bucket, queue, deadLetter };
}

/**
 * Document ingestion: one batch per invocation (batch size 1, partial batch responses), with the
 * most memory (CPU share) a 50 x 10 MB batch of PDFs can use, reading and deleting the batch's
 * files in the upload bucket.
 */
export function subscribeDocumentIngestion(rt: ServiceRuntime, queue: sst.aws.Queue, dependsOn: $util.Input<$util.Resource>[]) {
  return queue.subscribe(
    functionArgs(rt, {
      handler: lambdaHandler(DOCUMENTS_INGEST_MODULE),
      description: 'dbops document ingestion (SQS)',
      memoryMb: 3008,
      timeoutSeconds: INGEST_TIMEOUT_MINUTES * 60,
      install: installFor('documents-ingest'),
      grants: { kms: true, secrets: true, uploads: 'ingest' },
    }),
    { batch: { size: 1, partialResponses: true } },
    { dependsOn },
  );
}
