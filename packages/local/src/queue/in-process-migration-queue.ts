import { createHash, randomUUID } from 'node:crypto';
import type { MigrationMessage, MigrationQueue } from '@dbops/core/queue';
import { serializeMigrationMessage } from '@dbops/core/queue';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Options of {@link InProcessSqsQueue}; defaults follow an SQS queue with a redrive policy. */
export interface InProcessQueueOptions<M = MigrationMessage> {
  /** Loads the consumer: the executor Lambda handler. */
  loadHandler(): Promise<SqsHandler>;
  /** Where running deliveries are tracked, so the runtime's close() waits for them. */
  background: Set<Promise<unknown>>;
  /** Deliveries before a message is dropped (SQS maxReceiveCount). Default 3. */
  maxReceiveCount?: number;
  /** Wait before redelivering a failed message (SQS visibility timeout). Default 1000 ms. */
  redeliveryDelayMs?: number;
  /** Called when a message is dropped after its last delivery. */
  onDropped?(message: M, error: unknown): void;
}

/** What differs between the service's queues: the message body, its `kind` attribute, the queue and consumer names. */
export interface QueueIdentity<M> {
  serialize(message: M): string;
  kind: string;
  queueName: string;
  functionName: string;
}

const MIGRATIONS: QueueIdentity<MigrationMessage> = {
  serialize: serializeMigrationMessage,
  kind: 'migration-request',
  queueName: 'dbops-migrations',
  functionName: 'migration-executor',
};

function sqsRecord(identity: QueueIdentity<unknown>, body: string, messageId: string, receiveCount: number, sentAt: number): SQSRecord {
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
    messageAttributes: { kind: { dataType: 'String', stringValue: identity.kind } },
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${identity.queueName}`,
    awsRegion: 'local',
  };
}

const lambdaContext = (name: string): Context =>
  ({
    awsRequestId: randomUUID(),
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${name}`,
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
 * consumer handler as a one-record `SQSEvent`, right after the enqueuing request returns; a
 * message reported in `batchItemFailures` (or a handler that throws) is redelivered like SQS
 * would, up to `maxReceiveCount`. Messages live in memory: a stopped process loses queued
 * ones (the runtime queues unfinished work again at start).
 */
export class InProcessSqsQueue<M> {
  readonly name = 'in-process';
  readonly #options: InProcessQueueOptions<M>;
  readonly #identity: QueueIdentity<M>;

  constructor(identity: QueueIdentity<M>, options: InProcessQueueOptions<M>) {
    this.#identity = identity;
    this.#options = options;
  }

  async enqueue(message: M): Promise<void> {
    const body = this.#identity.serialize(message);
    const messageId = randomUUID();
    const sentAt = Date.now();
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#deliver(message, body, messageId, sentAt, 1));
    this.#options.background.add(run);
    void run.finally(() => this.#options.background.delete(run));
  }

  async #deliver(message: M, body: string, messageId: string, sentAt: number, receiveCount: number): Promise<void> {
    const max = this.#options.maxReceiveCount ?? 3;
    let failure: unknown;
    try {
      const handler = await this.#options.loadHandler();
      const response = await handler(
        { Records: [sqsRecord(this.#identity as QueueIdentity<unknown>, body, messageId, receiveCount, sentAt)] },
        lambdaContext(this.#identity.functionName),
      );
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

/** The migration queue: messages are request ids, consumed by the migration executor. */
export class InProcessMigrationQueue extends InProcessSqsQueue<MigrationMessage> implements MigrationQueue {
  constructor(options: InProcessQueueOptions<MigrationMessage>) {
    super(MIGRATIONS, options);
  }
}
