import { createHash, randomUUID } from 'node:crypto';
import type { MigrationMessage, MigrationQueue } from '@dbops/core/queue/migration-queue';
import { serializeMigrationMessage } from '@dbops/core/queue/migration-queue';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Options of {@link InProcessMigrationQueue}; defaults follow an SQS queue with a redrive policy. */
export interface InProcessQueueOptions {
  /** Loads the consumer: the executor Lambda handler. */
  loadHandler(): Promise<SqsHandler>;
  /** Where running deliveries are tracked, so the runtime's close() waits for them. */
  background: Set<Promise<unknown>>;
  /** Deliveries before a message is dropped (SQS maxReceiveCount). Default 3. */
  maxReceiveCount?: number;
  /** Wait before redelivering a failed message (SQS visibility timeout). Default 1000 ms. */
  redeliveryDelayMs?: number;
  /** Called when a message is dropped after its last delivery. */
  onDropped?(message: MigrationMessage, error: unknown): void;
}

const QUEUE_ARN = 'arn:aws:sqs:local:000000000000:dbops-migrations';

function sqsRecord(body: string, messageId: string, receiveCount: number, sentAt: number): SQSRecord {
  return {
    messageId,
    receiptHandle: `local-${messageId}-${receiveCount}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: { kind: { dataType: 'String', stringValue: 'migration-request' } },
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: QUEUE_ARN,
    awsRegion: 'local',
  };
}

const lambdaContext = (): Context =>
  ({
    awsRequestId: randomUUID(),
    functionName: 'migration-executor',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:migration-executor',
    memoryLimitInMB: '1024',
    logGroupName: '/aws/lambda/migration-executor',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    // The local process has no executor time limit; statement_timeout alone bounds each statement.
    getRemainingTimeInMillis: () => 24 * 3600_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

/**
 * The local stand-in for SQS + Lambda event source mapping: each message is handed to the
 * executor handler as a one-record `SQSEvent`, right after the enqueuing request returns; a
 * message reported in `batchItemFailures` (or a handler that throws) is redelivered like SQS
 * would, up to `maxReceiveCount`. Messages live in memory: a stopped process loses queued
 * ones (the request then fails as never started after the pending timeout).
 */
export class InProcessMigrationQueue implements MigrationQueue {
  readonly name = 'in-process';
  readonly #options: InProcessQueueOptions;

  constructor(options: InProcessQueueOptions) {
    this.#options = options;
  }

  async enqueue(message: MigrationMessage): Promise<void> {
    const body = serializeMigrationMessage(message);
    const messageId = randomUUID();
    const sentAt = Date.now();
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#deliver(message, body, messageId, sentAt, 1));
    this.#options.background.add(run);
    void run.finally(() => this.#options.background.delete(run));
  }

  async #deliver(message: MigrationMessage, body: string, messageId: string, sentAt: number, receiveCount: number): Promise<void> {
    const max = this.#options.maxReceiveCount ?? 3;
    let failure: unknown;
    try {
      const handler = await this.#options.loadHandler();
      const response = await handler({ Records: [sqsRecord(body, messageId, receiveCount, sentAt)] }, lambdaContext());
      if (!response?.batchItemFailures.some((f) => f.itemIdentifier === messageId)) return;
      failure = new Error('reported in batchItemFailures');
    } catch (error) {
      failure = error;
    }
    if (receiveCount >= max) {
      this.#options.onDropped?.(message, failure);
      return;
    }
    await new Promise((r) => setTimeout(r, this.#options.redeliveryDelayMs ?? 1000));
    await this.#deliver(message, body, messageId, sentAt, receiveCount + 1);
  }
}
