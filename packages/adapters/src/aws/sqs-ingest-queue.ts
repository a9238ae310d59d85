import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type IngestQueue, serializeDocumentBatchMessage } from '@dbops/core/documents';

/** SQS behind the IngestQueue port; the document ingestion Lambda is subscribed to the queue. */
export function createSqsIngestQueue(queueUrl: string, client: SQSClient = new SQSClient({})): IngestQueue {
  return {
    name: 'sqs',
    async enqueue(message) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: serializeDocumentBatchMessage(message),
          MessageAttributes: { kind: { DataType: 'String', StringValue: 'document-batch' } },
        }),
      );
    },
  };
}
