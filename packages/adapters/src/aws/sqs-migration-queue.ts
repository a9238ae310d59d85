import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { type MigrationQueue, serializeMigrationMessage } from '@dbops/core/queue';

/**
 * SQS behind the MigrationQueue port. The executor Lambda is subscribed to the queue (batch
 * size 1, partial batch responses). On a FIFO queue (`.fifo` URL) the request id is both the
 * group and the deduplication id, so a resubmission within five minutes is not delivered twice.
 */
export function createSqsMigrationQueue(queueUrl: string, client: SQSClient = new SQSClient({})): MigrationQueue {
  const fifo = queueUrl.endsWith('.fifo');
  return {
    name: 'sqs',
    async enqueue(message) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: serializeMigrationMessage(message),
          MessageAttributes: { kind: { DataType: 'String', StringValue: 'migration-request' } },
          ...(fifo ? { MessageGroupId: message.requestId, MessageDeduplicationId: message.requestId } : {}),
        }),
      );
    },
  };
}
