import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSqsMigrationQueue } from './sqs-migration-queue';

const sqs = mockClient(SQSClient);
const requestId = '3f1c1d2e-0000-4000-8000-000000000001';

describe('SQS migration queue', () => {
  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  });

  it('sends one message with the request id as JSON body to the configured queue', async () => {
    const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/dbops-migrations';
    await createSqsMigrationQueue(url, new SQSClient({ region: 'eu-west-1' })).enqueue({ requestId });
    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.QueueUrl).toBe(url);
    expect(JSON.parse(input.MessageBody!)).toEqual({ requestId });
    expect(input.MessageGroupId).toBeUndefined();
    expect(input.MessageDeduplicationId).toBeUndefined();
  });

  it('sets group and deduplication ids on a FIFO queue', async () => {
    const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/dbops-migrations.fifo';
    await createSqsMigrationQueue(url, new SQSClient({ region: 'eu-west-1' })).enqueue({ requestId });
    const input = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ QueueUrl: url, MessageGroupId: requestId, MessageDeduplicationId: requestId });
  });

  it('passes a send failure to the caller, which answers 503 and keeps the request pending', async () => {
    sqs.on(SendMessageCommand).rejects(new Error('throttled'));
    await expect(createSqsMigrationQueue('https://sqs.x/1/q', new SQSClient({ region: 'eu-west-1' })).enqueue({ requestId })).rejects.toThrow('throttled');
  });
});
