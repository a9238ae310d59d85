import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { openBatch, putToSlot, type UploadSlot, uploadThroughSlots, waitForBatch } from '../support/documents';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const QUOTA = 100_000;
const MINUTE = 60_000;

describe('unconfirmed upload batches: swept after expiry, bounded by a quota of pending bytes', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let bob: string;
  let aliceConn: string;
  let bobConn: string;
  // The service's clock, moved forward to expire batches without waiting 20 minutes.
  let skewMs = 0;
  const clock = { now: () => new Date(Date.now() + skewMs) };
  const filesUnder = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [];
  const batchRows = async (batchId: string): Promise<number> =>
    (
      await t.runtime.container.store.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM document_batches WHERE id = $1) + (SELECT count(*) FROM document_batch_files WHERE batch_id = $1) AS n',
        [batchId],
      )
    ).rows[0]!.n;
  const text = (n: number, word = 'pending '): string => word.repeat(Math.ceil(n / word.length)).slice(0, n);

  beforeAll(async () => {
    t = await startTestRuntime({ runtime: { clock }, env: { DBOPS_DOCUMENT_PENDING_QUOTA_BYTES: String(QUOTA) } });
    db = await createScratchDatabase('sweep');
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
    aliceConn = (await registerConnection(t, 'alice', db.url)).id;
    bobConn = (await registerConnection(t, 'bob', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('deletes the files and rows of a batch never confirmed once it has expired', async () => {
    const files = [
      { name: 'a.txt', content: text(20_000) },
      { name: 'b.txt', content: text(20_000) },
    ];
    const opened = await openBatch(t, { jwt: alice }, aliceConn, files);
    expect(opened.status).toBe(201);
    const batchId = opened.body.data.batch_id as string;
    const slots = opened.body.data.slots as UploadSlot[];
    expect((await putToSlot(slots[0]!, files[0]!.content)).status).toBe(200);
    const uploads = path.join(t.runtime.home, 'uploads');
    expect(filesUnder(uploads).filter((f) => f.includes(batchId))).toHaveLength(1);

    // Still there within its expiry and the grace after it.
    skewMs = 19 * MINUTE;
    expect((await openBatch(t, { jwt: bob }, bobConn, [{ name: 'x.md', content: '# x' }])).status).toBe(201);
    expect(await batchRows(batchId)).toBe(3);

    // 15 minutes of slots and 5 of grace later, opening any batch sweeps it: files, then rows.
    skewMs = 21 * MINUTE;
    expect((await openBatch(t, { jwt: bob }, bobConn, [{ name: 'y.md', content: '# y' }])).status).toBe(201);
    expect(filesUnder(uploads).filter((f) => f.includes(batchId))).toEqual([]);
    expect(await batchRows(batchId)).toBe(0);
    expect((await t.request('GET', `/connections/${aliceConn}/documents/batches/${batchId}`, { jwt: alice })).status).toBe(404);
    // Its slot is no longer accepted.
    expect((await putToSlot(slots[1]!, files[1]!.content)).status).toBe(403);
  });

  it("refuses a batch that takes a user's pending bytes past the quota, naming the file, until batches are ingested or swept", async () => {
    skewMs += 60 * MINUTE;
    const first = await openBatch(t, { jwt: alice }, aliceConn, [{ name: 'one.txt', content: text(60_000) }]);
    expect(first.status).toBe(201);
    const second = await openBatch(t, { jwt: alice }, aliceConn, [
      { name: 'two.txt', content: text(30_000) },
      { name: 'three.txt', content: text(30_000) },
    ]);
    expect(second.status).toBe(413);
    expect(second.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { filename: 'three.txt', reason: 'pending_quota', limit_bytes: QUOTA, pending_bytes: 60_000 },
    });
    // Another user's quota is their own.
    expect((await openBatch(t, { jwt: bob }, bobConn, [{ name: 'big.txt', content: text(90_000) }])).status).toBe(201);

    // An ingested batch no longer counts: upload and confirm a small one within the quota...
    const ingested = await uploadThroughSlots(t, { jwt: alice }, aliceConn, [{ name: 'small.txt', content: text(30_000, 'orders ') }]);
    expect(ingested.status).toBe(202);
    expect((await waitForBatch(t, { jwt: alice }, aliceConn, ingested.body.data.batch_id)).status).toBe('completed');
    expect((await openBatch(t, { jwt: alice }, aliceConn, [{ name: 'four.txt', content: text(30_000) }])).status).toBe(201);

    // ...and an unconfirmed one stops counting once swept.
    expect((await openBatch(t, { jwt: alice }, aliceConn, [{ name: 'five.txt', content: text(30_000) }])).status).toBe(413);
    skewMs += 21 * MINUTE;
    expect((await openBatch(t, { jwt: alice }, aliceConn, [{ name: 'five.txt', content: text(90_000) }])).status).toBe(201);
  });
});
