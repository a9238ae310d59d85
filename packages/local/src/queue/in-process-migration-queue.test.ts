import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { InProcessMigrationQueue } from './in-process-migration-queue';

const drain = async (background: Set<Promise<unknown>>) => {
  while (background.size > 0) await Promise.allSettled([...background]);
};

describe('in-process migration queue', () => {
  it('hands the executor a one-record SQS event after enqueue returns, tracked as background work', async () => {
    const events: SQSEvent[] = [];
    const background = new Set<Promise<unknown>>();
    const queue = new InProcessMigrationQueue({
      background,
      loadHandler: async () => async (event) => {
        events.push(event);
        return { batchItemFailures: [] };
      },
    });
    await queue.enqueue({ requestId: 'r-1' });
    expect(events).toHaveLength(0); // delivered after the enqueuing request has answered
    expect(background.size).toBe(1);
    await drain(background);
    expect(events).toHaveLength(1);
    const [record] = events[0]!.Records;
    expect(record).toMatchObject({
      body: '{"requestId":"r-1"}',
      eventSource: 'aws:sqs',
      eventSourceARN: expect.stringMatching(/^arn:aws:sqs:/),
      attributes: { ApproximateReceiveCount: '1' },
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('redelivers a reported failure like SQS, up to maxReceiveCount, then drops it', async () => {
    const counts: string[] = [];
    const dropped: string[] = [];
    const background = new Set<Promise<unknown>>();
    const queue = new InProcessMigrationQueue({
      background,
      maxReceiveCount: 3,
      redeliveryDelayMs: 1,
      onDropped: (m) => dropped.push(m.requestId),
      loadHandler: async () => async (event) => {
        const r = event.Records[0]!;
        counts.push(r.attributes.ApproximateReceiveCount);
        if (counts.length === 2) throw new Error('handler crashed');
        return { batchItemFailures: [{ itemIdentifier: r.messageId }] };
      },
    });
    await queue.enqueue({ requestId: 'r-2' });
    await drain(background);
    expect(counts).toEqual(['1', '2', '3']);
    expect(dropped).toEqual(['r-2']);
  });
});
