import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { parseDocumentBatchMessage } from '@dbops/core/documents';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSqsIngestQueue } from './sqs-ingest-queue';

const sqs = mockClient(SQSClient);
const batchId = '3f1c1d2e-0000-4000-8000-000000000003';

describe('SQS ingest queue', () => {
  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  });

  it('sends the batch id as a message the ingestion consumer parses', async () => {
    const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/dbops-documents';
    await createSqsIngestQueue(url, new SQSClient({ region: 'eu-west-1' })).enqueue({ batchId });
    const input = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input;
    expect(input.QueueUrl).toBe(url);
    expect(parseDocumentBatchMessage(input.MessageBody!)).toEqual({ batchId });
    expect(input.MessageAttributes?.kind?.StringValue).toBe('document-batch');
  });

  it('ignores bodies that are not a batch message', () => {
    expect(parseDocumentBatchMessage('{"batchId":"../etc"}')).toBeUndefined();
    expect(parseDocumentBatchMessage('nope')).toBeUndefined();
  });
});
