import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { makePdf, uploadDocuments, uploadThroughSlots, waitForBatch } from '../support/documents';
import { deflateBombPdf, nestedFormBombPdf } from '../support/hostile-pdfs';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const MIB = 1024 * 1024;

/** Runs `work` while sampling the process's RSS; answers its result and the peak growth over the RSS before it. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

describe('hostile documents', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let bob: string;
  let aliceConn: string;
  let bobConn: string;
  const listed = async (jwt: string, conn: string): Promise<string[]> =>
    (await t.request('GET', `/connections/${conn}/documents`, { jwt })).body.data.map((d: { filename: string }) => d.filename);

  beforeAll(async () => {
    // A CPU budget far below the default (120 s) keeps the test short; it is still many times
    // what the ordinary files here need.
    t = await startTestRuntime({ env: { DBOPS_DOCUMENT_CPU_SECONDS: '6' } });
    db = await createScratchDatabase('hostile');
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
    aliceConn = (await registerConnection(t, 'alice', db.url)).id;
    bobConn = (await registerConnection(t, 'bob', db.url)).id;
    // Extraction threads started and pdfjs loaded, so memory measured below is the file's own
    // (through a batch: a cold start on a loaded machine may not fit a request's window).
    const warm = await uploadThroughSlots(t, { jwt: alice }, aliceConn, [
      { name: 'warm.pdf', content: await makePdf([['Warm-up page with the orders table.'], ['Second page.']]) },
    ]);
    expect((await waitForBatch(t, { jwt: alice }, aliceConn, warm.body.data.batch_id)).status).toBe('completed');
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('refuses a 1 MB PDF that inflates to 1 GiB with a 422 naming the bound, and the process does not balloon', async () => {
    const bomb = await deflateBombPdf(1024 * MIB);
    expect(bomb.length).toBeLessThan(1.5 * MIB);
    const { value: res, growth } = await peakRssGrowth(() =>
      uploadDocuments(t, { jwt: alice }, aliceConn, [
        { name: 'fine.md', content: '# Fine\n\nThe orders table.' },
        { name: 'revenue.pdf', content: bomb, type: 'application/pdf' },
      ]),
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'DOCUMENT_REJECTED',
      details: { filename: 'revenue.pdf', reason: 'decoded_too_large', scope: 'stream', limit_decoded_bytes: 64 * MIB },
    });
    // Before the bound the upload answered 200 and the process grew by 1.8-2.8 GB and stayed so.
    expect(growth).toBeLessThan(512 * MIB);
    expect(await listed(alice, aliceConn)).toEqual(['warm.pdf']);
  });

  it('refuses the deflate bomb through upload slots too: the batch fails naming it', async () => {
    const confirmed = await uploadThroughSlots(t, { jwt: alice }, aliceConn, [{ name: 'q3.pdf', content: await deflateBombPdf(512 * MIB) }]);
    expect(confirmed.status).toBe(202);
    const done = await waitForBatch(t, { jwt: alice }, aliceConn, confirmed.body.data.batch_id);
    expect(done.status).toBe('failed');
    expect(done.rejections).toEqual([expect.objectContaining({ filename: 'q3.pdf', reason: 'decoded_too_large' })]);
  });

  it("stops a nested form-XObject PDF at its CPU budget, while another user's small upload is answered meanwhile", async () => {
    const bomb = nestedFormBombPdf();
    expect(bomb.length).toBeLessThan(4096);
    let hostileAnswered = false;
    const hostile = uploadDocuments(t, { jwt: alice }, aliceConn, [{ name: 'ledger.pdf', content: bomb, type: 'application/pdf' }]).then((res) => {
      hostileAnswered = true;
      return res;
    });
    // Let the hostile file reach the extraction threads first.
    await new Promise((r) => setTimeout(r, 1500));
    const small = await uploadDocuments(t, { jwt: bob }, bobConn, [{ name: 'note.md', content: '# Note\n\nShort.' }]);
    expect(small.status).toBe(200);
    // Before the fix this upload waited behind the hostile file and answered 500 at the gateway's 30 s.
    expect(hostileAnswered).toBe(false);

    const res = await hostile;
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'DOCUMENT_REJECTED',
      details: { filename: 'ledger.pdf', reason: 'extraction_timeout', limit_cpu_seconds: 6 },
    });
    expect(res.body.error.message).toMatch(/CPU/);
    // The stopped threads were replaced: a PDF of the same user is read again at once.
    const after = await uploadDocuments(t, { jwt: alice }, aliceConn, [
      { name: 'after.pdf', content: await makePdf([['The invoices table holds one row per invoice.']]), type: 'application/pdf' },
    ]);
    expect(after.status).toBe(200);
    expect((await listed(alice, aliceConn)).sort()).toEqual(['after.pdf', 'warm.pdf']);
  }, 120_000);
});
