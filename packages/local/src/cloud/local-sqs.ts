import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** SQS's largest message body. */
const MAX_BODY_BYTES = 256 * 1024;
const ACCOUNT = '000000000000';

export interface QueueOptions {
  name: string;
  /** How long a received message stays hidden before it is handed out again. */
  visibilityTimeoutMs: number;
  /** Receives after which the next receive moves the message to `deadLetter` instead (redrive policy). */
  maxReceiveCount?: number;
  deadLetter?: LocalQueue;
}

export interface StoredMessage {
  messageId: string;
  body: string;
  attributes: Record<string, { DataType: string; StringValue?: string }>;
  sentAt: number;
  receiveCount: number;
  firstReceiveAt: number | null;
  visibleAt: number;
  /** The handle of the latest receive; only it deletes the message (an older one is stale). */
  receiptHandle: string | null;
}

/** What happened to messages, in order (the fault drills read it). */
export type QueueEvent =
  | { type: 'sent'; queue: string; messageId: string }
  | { type: 'received'; queue: string; messageId: string; receiveCount: number }
  | { type: 'deleted'; queue: string; messageId: string; receiveCount: number }
  | { type: 'dead-lettered'; queue: string; messageId: string; receiveCount: number };

/** One standard SQS queue in memory: at-least-once, visibility timeout, receive counts, redrive. */
export class LocalQueue {
  readonly #messages = new Map<string, StoredMessage>();
  readonly #listeners = new Set<() => void>();
  readonly events: QueueEvent[];

  constructor(
    readonly options: QueueOptions,
    events: QueueEvent[],
    readonly url: string,
  ) {
    this.events = events;
  }

  get name(): string {
    return this.options.name;
  }

  send(body: string, attributes: StoredMessage['attributes'] = {}, now = Date.now()): StoredMessage {
    const message: StoredMessage = {
      messageId: randomUUID(),
      body,
      attributes,
      sentAt: now,
      receiveCount: 0,
      firstReceiveAt: null,
      visibleAt: now,
      receiptHandle: null,
    };
    this.#messages.set(message.messageId, message);
    this.events.push({ type: 'sent', queue: this.name, messageId: message.messageId });
    for (const l of this.#listeners) l();
    return message;
  }

  /** Moves a message in from another queue (redrive), keeping its id and body. */
  adopt(message: StoredMessage, now = Date.now()): void {
    this.#messages.set(message.messageId, { ...message, receiveCount: 0, visibleAt: now, receiptHandle: null, firstReceiveAt: null });
  }

  /**
   * Up to `max` visible messages, now hidden for the visibility timeout with their receive count
   * raised. A message already received `maxReceiveCount` times goes to the dead-letter queue
   * instead, as SQS's redrive does on the receive after the last.
   */
  receive(max: number, now = Date.now()): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const m of this.#messages.values()) {
      if (out.length >= max) break;
      if (m.visibleAt > now) continue;
      const limit = this.options.maxReceiveCount;
      if (limit !== undefined && this.options.deadLetter && m.receiveCount >= limit) {
        this.#messages.delete(m.messageId);
        this.options.deadLetter.adopt(m, now);
        this.events.push({ type: 'dead-lettered', queue: this.name, messageId: m.messageId, receiveCount: m.receiveCount });
        continue;
      }
      m.receiveCount += 1;
      m.firstReceiveAt ??= now;
      m.visibleAt = now + this.options.visibilityTimeoutMs;
      m.receiptHandle = `${m.messageId}:${m.receiveCount}:${randomUUID()}`;
      this.events.push({ type: 'received', queue: this.name, messageId: m.messageId, receiveCount: m.receiveCount });
      out.push({ ...m });
    }
    return out;
  }

  /** Deletes by receipt handle; a stale handle (the message was received again since) deletes nothing, as in SQS. */
  delete(receiptHandle: string): boolean {
    const id = receiptHandle.split(':')[0]!;
    const m = this.#messages.get(id);
    if (!m || m.receiptHandle !== receiptHandle) return false;
    this.#messages.delete(id);
    this.events.push({ type: 'deleted', queue: this.name, messageId: id, receiveCount: m.receiveCount });
    return true;
  }

  /** ChangeMessageVisibility: an in-flight message becomes visible again after `ms` (0: now). */
  changeVisibility(messageId: string, ms: number, now = Date.now()): boolean {
    const m = this.#messages.get(messageId);
    if (!m || m.receiptHandle === null) return false;
    m.visibleAt = now + ms;
    for (const l of this.#listeners) l();
    return true;
  }

  /** Moves every message of this (dead-letter) queue back to `source`, as SQS's DLQ redrive does. */
  redriveTo(source: LocalQueue, now = Date.now()): number {
    const moved = [...this.#messages.values()];
    for (const m of moved) {
      this.#messages.delete(m.messageId);
      source.adopt(m, now);
    }
    if (moved.length > 0) source.notify();
    return moved.length;
  }

  /** Wakes the consumers (a message became visible). */
  notify(): void {
    for (const l of this.#listeners) l();
  }

  /** Messages still in the queue, visible or not. */
  messages(): StoredMessage[] {
    return [...this.#messages.values()].map((m) => ({ ...m }));
  }

  /** Milliseconds until the next message becomes visible (0: one is visible now), or null when empty. */
  nextVisibleInMs(now = Date.now()): number | null {
    let next: number | null = null;
    for (const m of this.#messages.values()) next = Math.min(next ?? Infinity, Math.max(0, m.visibleAt - now));
    return next;
  }

  onSend(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/**
 * The queues of one local deployment behind an SQS endpoint that speaks the AWS JSON protocol
 * the SDK uses (`X-Amz-Target: AmazonSQS.<Action>`), so that the functions' own SQS adapter
 * (packages/adapters/src/aws/sqs-*-queue.ts) sends through the SDK as it does on AWS.
 * SendMessage is served (producers); consumption goes through {@link EventSourceMapping}, as
 * Lambda's own poller does on AWS.
 */
export class LocalSqs {
  readonly events: QueueEvent[] = [];
  readonly #queues = new Map<string, LocalQueue>();
  readonly #server: Server;
  origin = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const reply = (status: number, body: unknown): void => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
          res.end(JSON.stringify(body));
        };
        const fault = (type: string, message: string): void => reply(400, { __type: `com.amazonaws.sqs#${type}`, message });
        const action = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
        let input: { QueueUrl?: string; MessageBody?: string; MessageAttributes?: StoredMessage['attributes'] };
        try {
          input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof input;
        } catch {
          return fault('InvalidParameterValue', 'The request body is not JSON.');
        }
        if (action !== 'SendMessage') return fault('UnsupportedOperation', `${action || 'this action'} is not served by the local SQS endpoint`);
        const queue = this.#queues.get(
          String(input.QueueUrl ?? '')
            .split('/')
            .pop() ?? '',
        );
        if (!queue) return fault('QueueDoesNotExist', 'The specified queue does not exist.');
        const body = input.MessageBody ?? '';
        if (body.length === 0) return fault('MissingParameter', 'The request must contain the parameter MessageBody.');
        if (Buffer.byteLength(body) > MAX_BODY_BYTES) return fault('InvalidParameterValue', `Message must be shorter than ${MAX_BODY_BYTES} bytes.`);
        const sent = queue.send(body, input.MessageAttributes ?? {});
        reply(200, { MessageId: sent.messageId, MD5OfMessageBody: md5(body) });
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  createQueue(options: QueueOptions): LocalQueue {
    const queue = new LocalQueue(options, this.events, `${this.origin}/${ACCOUNT}/${options.name}`);
    this.#queues.set(options.name, queue);
    return queue;
  }

  queue(name: string): LocalQueue | undefined {
    return this.#queues.get(name);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

/** Invokes a function with an SQS event and returns its answer (the local Lambda service). */
export type InvokeFn = (functionName: string, event: unknown) => Promise<unknown>;

export interface EventSourceMappingOptions {
  queue: LocalQueue;
  functionName: string;
  invoke: InvokeFn;
  /** Records per invocation (infra/executor.ts: 1). */
  batchSize: number;
  /** Concurrent invocations (Lambda scales pollers with the backlog). Default 4. */
  maxConcurrency?: number;
  /** Longest wait between polls when nothing is visible. Default 1000 ms. */
  pollMs?: number;
  onError?(error: unknown, messageIds: string[]): void;
}

const recordOf = (queue: LocalQueue, m: StoredMessage): object => ({
  messageId: m.messageId,
  receiptHandle: m.receiptHandle,
  body: m.body,
  attributes: {
    ApproximateReceiveCount: String(m.receiveCount),
    SentTimestamp: String(m.sentAt),
    SenderId: 'local',
    ApproximateFirstReceiveTimestamp: String(m.firstReceiveAt ?? m.sentAt),
  },
  messageAttributes: Object.fromEntries(
    Object.entries(m.attributes).map(([k, v]) => [k, { dataType: v.DataType, stringValue: v.StringValue, stringListValues: [], binaryListValues: [] }]),
  ),
  md5OfBody: md5(m.body),
  eventSource: 'aws:sqs',
  eventSourceARN: `arn:aws:sqs:local:${ACCOUNT}:${queue.name}`,
  awsRegion: 'local',
});

/**
 * Lambda's SQS event source mapping with `ReportBatchItemFailures`: receives batches, invokes the
 * consumer, and deletes the records the answer does not list in `batchItemFailures`, only after
 * the invocation returned. A failed invocation (thrown error, crash, timeout) or an answer that is
 * not a valid batch response deletes nothing: those messages come back after the visibility
 * timeout, until the redrive policy moves them to the dead-letter queue.
 */
export class EventSourceMapping {
  readonly #o: EventSourceMappingOptions;
  readonly #running = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #paused = false;
  readonly #unsubscribe: () => void;

  constructor(options: EventSourceMappingOptions) {
    this.#o = options;
    this.#unsubscribe = options.queue.onSend(() => this.#schedule(0));
    this.#schedule(0);
  }

  /** Invocations running now. */
  get inFlight(): number {
    return this.#running.size;
  }

  /** Resolves once no invocation is running and no message is visible (tests). */
  async idle(): Promise<void> {
    while (this.#running.size > 0 || this.#o.queue.nextVisibleInMs() === 0) {
      await Promise.allSettled([...this.#running]);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Disables the mapping (`update-event-source-mapping --no-enabled`): messages wait in the queue. */
  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    clearTimeout(this.#timer);
    await Promise.allSettled([...this.#running]);
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#poll(), ms);
  }

  #poll(): void {
    const max = this.#o.maxConcurrency ?? 4;
    while (!this.#stopped && !this.#paused && this.#running.size < max) {
      const batch = this.#o.queue.receive(this.#o.batchSize);
      if (batch.length === 0) break;
      const run = this.#deliver(batch);
      this.#running.add(run);
      void run.finally(() => {
        this.#running.delete(run);
        this.#schedule(0);
      });
    }
    const next = this.#o.queue.nextVisibleInMs();
    this.#schedule(next === null ? (this.#o.pollMs ?? 1000) : Math.min(Math.max(next, 5), this.#o.pollMs ?? 1000));
  }

  async #deliver(batch: StoredMessage[]): Promise<void> {
    const { queue } = this.#o;
    let answer: unknown;
    try {
      answer = await this.#o.invoke(this.#o.functionName, { Records: batch.map((m) => recordOf(queue, m)) });
    } catch (error) {
      this.#o.onError?.(
        error,
        batch.map((m) => m.messageId),
      );
      return;
    }
    const failures = (answer as { batchItemFailures?: unknown } | null)?.batchItemFailures;
    const failed = new Set<string>();
    if (answer !== null && answer !== undefined && failures !== undefined) {
      if (!Array.isArray(failures)) return; // not a valid batch response: the whole batch failed
      for (const f of failures) {
        const id = (f as { itemIdentifier?: unknown })?.itemIdentifier;
        if (typeof id !== 'string' || id === '' || !batch.some((m) => m.messageId === id)) return; // invalid: whole batch failed
        failed.add(id);
      }
    }
    for (const m of batch) if (!failed.has(m.messageId) && m.receiptHandle) queue.delete(m.receiptHandle);
  }
}
