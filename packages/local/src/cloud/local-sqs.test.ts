import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { EventSourceMapping, LocalSqs } from './local-sqs';

type Sqs = { Records: { messageId: string; body: string; attributes: { ApproximateReceiveCount: string } }[] };

const until = async (check: () => boolean, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('local SQS and the event source mapping', () => {
  let sqs: LocalSqs;
  const mappings: EventSourceMapping[] = [];
  afterEach(async () => {
    for (const m of mappings.splice(0)) await m.stop();
    await sqs?.close();
  });

  const setup = async (options: { visibilityTimeoutMs?: number; maxReceiveCount?: number } = {}) => {
    sqs = new LocalSqs();
    await sqs.listen();
    const dlq = sqs.createQueue({ name: 'dlq', visibilityTimeoutMs: 1000 });
    const queue = sqs.createQueue({
      name: 'q',
      visibilityTimeoutMs: options.visibilityTimeoutMs ?? 100,
      maxReceiveCount: options.maxReceiveCount ?? 3,
      deadLetter: dlq,
    });
    return { queue, dlq };
  };
  const map = (queue: ReturnType<LocalSqs['createQueue']>, invoke: (event: Sqs) => Promise<unknown>) => {
    const m = new EventSourceMapping({ queue, functionName: 'consumer', batchSize: 1, pollMs: 20, invoke: (_n, e) => invoke(e as Sqs) });
    mappings.push(m);
    return m;
  };

  it("takes SendMessage from the SDK's own SQS client (JSON protocol, body MD5 checked by the SDK)", async () => {
    const { queue } = await setup();
    const client = new SQSClient({ region: 'us-east-1', endpoint: sqs.origin, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const out = await client.send(
      new SendMessageCommand({ QueueUrl: queue.url, MessageBody: '{"requestId":"r"}', MessageAttributes: { kind: { DataType: 'String', StringValue: 'k' } } }),
    );
    expect(out.MessageId).toEqual(queue.messages()[0]!.messageId);
    expect(queue.messages()[0]).toMatchObject({ body: '{"requestId":"r"}', attributes: { kind: { DataType: 'String', StringValue: 'k' } } });
    await expect(client.send(new SendMessageCommand({ QueueUrl: `${sqs.origin}/000000000000/nope`, MessageBody: 'x' }))).rejects.toThrow(/does not exist/);
    client.destroy();
  });

  it('deletes a message only after the invocation returned, never while it runs', async () => {
    const { queue } = await setup({ visibilityTimeoutMs: 60_000 });
    let finish: (v: unknown) => void = () => undefined;
    let calls = 0;
    map(queue, () => {
      calls++;
      return new Promise((resolve) => (finish = resolve));
    });
    queue.send('work');
    await until(() => calls === 1);
    await new Promise((r) => setTimeout(r, 50));
    // Acknowledging on receipt would have removed it here.
    expect(queue.messages()).toHaveLength(1);
    expect(sqs.events.some((e) => e.type === 'deleted')).toBe(false);
    finish({ batchItemFailures: [] });
    await until(() => queue.messages().length === 0);
    expect(sqs.events.map((e) => e.type)).toEqual(['sent', 'received', 'deleted']);
  });

  it('keeps what batchItemFailures lists, a thrown invocation and an invalid answer; redelivers after the visibility timeout with the count raised', async () => {
    const { queue } = await setup({ maxReceiveCount: 10 });
    const seen: string[] = [];
    const answers: ((r: Sqs['Records'][number]) => unknown)[] = [
      (r) => ({ batchItemFailures: [{ itemIdentifier: r.messageId }] }),
      () => {
        throw new Error('crashed');
      },
      () => ({ batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] }),
      () => ({ batchItemFailures: 'nonsense' }),
      () => null,
    ];
    map(queue, async (event) => {
      const r = event.Records[0]!;
      seen.push(r.attributes.ApproximateReceiveCount);
      return answers[seen.length - 1]!(r);
    });
    queue.send('work');
    await until(() => queue.messages().length === 0);
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
  });

  it('moves a message to the dead-letter queue on the receive after maxReceiveCount', async () => {
    const { queue, dlq } = await setup({ maxReceiveCount: 3 });
    const counts: string[] = [];
    map(queue, async (event) => {
      counts.push(event.Records[0]!.attributes.ApproximateReceiveCount);
      return { batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] };
    });
    const sent = queue.send('poison');
    await until(() => dlq.messages().length === 1);
    expect(counts).toEqual(['1', '2', '3']);
    expect(queue.messages()).toEqual([]);
    expect(dlq.messages()[0]).toMatchObject({ messageId: sent.messageId, body: 'poison' });
    expect(sqs.events.at(-1)).toEqual({ type: 'dead-lettered', queue: 'q', messageId: sent.messageId, receiveCount: 3 });
  });

  it('ignores a stale receipt handle: a slow consumer cannot delete a message handed out again', async () => {
    const { queue } = await setup({ visibilityTimeoutMs: 10 });
    queue.send('m');
    const [first] = queue.receive(1);
    await new Promise((r) => setTimeout(r, 20));
    const [second] = queue.receive(1);
    expect(second!.receiveCount).toBe(2);
    expect(queue.delete(first!.receiptHandle!)).toBe(false);
    expect(queue.messages()).toHaveLength(1);
    expect(queue.delete(second!.receiptHandle!)).toBe(true);
  });
});
