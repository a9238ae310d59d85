import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { makePdf, openBatch, uploadForm, putToSlot, type UploadSlot, uploadThroughSlots, waitForBatch } from '../support/documents';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('document upload through upload slots', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let bob: string;
  let conn: string;
  const batches = (c: string) => `/connections/${c}/documents/batches`;
  const chunkRows = async (): Promise<number> =>
    (await t.runtime.container.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks')).rows[0]!.n;

  // The service's clock, moved forward to expire slots without waiting 15 minutes.
  let skewMs = 0;
  const clock = { now: () => new Date(Date.now() + skewMs) };

  beforeAll(async () => {
    t = await startTestRuntime({ runtime: { clock } });
    db = await createScratchDatabase('slots');
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
    conn = (await registerConnection(t, 'alice', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('ingests a PDF, Markdown, text and SQL batch asynchronously with the same result as the multipart upload', async () => {
    const pdf = await makePdf([['Fulfilment handbook', '', 'Every order in the orders table ships within two days.'], ['Returns are logged in returns.']]);
    const opened = await openBatch(t, { jwt: alice }, conn, [
      { name: 'handbook.pdf', content: pdf },
      { name: 'glossary.md', content: '# Glossary\n\n## Customer\nA customer places orders.\n\n## Invoice\nSent monthly.' },
    ]);
    expect(opened.status).toBe(201);
    const data = opened.body.data;
    expect(data).toMatchObject({ status: 'awaiting_upload', result: null, error: null, rejections: [] });
    expect(data.files).toEqual([
      { filename: 'handbook.pdf', size_bytes: pdf.length, content_type: 'application/pdf', uploaded: false },
      { filename: 'glossary.md', size_bytes: expect.any(Number), content_type: 'text/markdown', uploaded: false },
    ]);
    const slots = data.slots as UploadSlot[];
    expect(slots.map((s) => [s.filename, s.method, s.headers['content-type']])).toEqual([
      ['handbook.pdf', 'PUT', 'application/pdf'],
      ['glossary.md', 'PUT', 'text/markdown'],
    ]);

    // Confirming before every file is there names the missing ones and leaves the batch open.
    expect((await putToSlot(slots[0]!, pdf)).status).toBe(200);
    const early = await t.request('POST', `${batches(conn)}/${data.batch_id}/confirm`, { jwt: alice });
    expect(early.status).toBe(422);
    expect(early.body.error).toMatchObject({ code: 'DOCUMENT_REJECTED', details: { filename: 'glossary.md', reason: 'not_uploaded' } });
    expect((await putToSlot(slots[1]!, '# Glossary\n\n## Customer\nA customer places orders.\n\n## Invoice\nSent monthly.')).status).toBe(200);

    const confirmed = await t.request('POST', `${batches(conn)}/${data.batch_id}/confirm`, { jwt: alice });
    expect(confirmed.status).toBe(202);
    expect(['queued', 'ingesting', 'completed']).toContain(confirmed.body.data.status);
    const done = await waitForBatch(t, { jwt: alice }, conn, data.batch_id);
    expect(done.status).toBe('completed');
    expect(done.result.files_processed).toBe(2);
    expect(done.result.documents.map((d: { filename: string; content_type: string }) => [d.filename, d.content_type])).toEqual([
      ['handbook.pdf', 'application/pdf'],
      ['glossary.md', 'text/markdown'],
    ]);
    expect(done.result.documents[1].chunk_count).toBe(2);
    expect(done.result.total_chunks).toBe(await chunkRows());

    const listed = await t.request('GET', `/connections/${conn}/documents`, { jwt: alice });
    expect(listed.body.data.map((d: { filename: string }) => d.filename).sort()).toEqual(['glossary.md', 'handbook.pdf']);
    // No generation is left pending or awaiting deletion: every chunk written is a visible one.
    expect((await t.runtime.container.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_generations')).rows[0]!.n).toBe(0);
    // Confirming again changes nothing.
    const again = await t.request('POST', `${batches(conn)}/${data.batch_id}/confirm`, { jwt: alice });
    expect(again.body.data.status).toBe('completed');
    expect(await chunkRows()).toBe(done.result.total_chunks);
    // Another user's batch does not exist for bob.
    expect((await t.request('GET', `${batches(conn)}/${data.batch_id}`, { jwt: bob })).status).toBe(404);
  });

  it('refuses a batch at slot time naming every refused file', async () => {
    const files = Array.from({ length: 52 }, (_, i) => ({ filename: `f${i}.md`, size_bytes: 10 }));
    files[0] = { filename: 'huge.txt', size_bytes: 10 * 1024 * 1024 + 1 };
    files[1] = { filename: 'photo.png', size_bytes: 10 };
    files[2] = { filename: 'f3.md', size_bytes: 10 };
    const res = await t.request('POST', batches(conn), { jwt: alice, body: { files } });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { filename: 'huge.txt', reason: 'too_large' } });
    expect(res.body.error.details.rejections.map((r: { filename: string; reason: string }) => `${r.filename}:${r.reason}`)).toEqual([
      'huge.txt:too_large',
      'photo.png:unsupported_type',
      'f3.md:duplicate_filename',
      'f50.md:too_many_files',
      'f51.md:too_many_files',
    ]);
  });

  it('enforces the limits where the bytes land: type, content, size, reuse', async () => {
    const text = 'Orders ship in two days.';
    const opened = await openBatch(t, { jwt: alice }, conn, [
      { name: 'a.txt', content: text },
      { name: 'b.pdf', content: '%PDF-1.7 not really' },
    ]);
    const [a, b] = opened.body.data.slots as UploadSlot[];
    // Wrong Content-Type for the slot.
    expect((await putToSlot(a!, text, { 'content-type': 'text/html' })).body.error).toMatchObject({ details: { reason: 'unsupported_type' } });
    // Binary bytes into a text slot, same size.
    const binary = new Uint8Array(text.length).fill(0);
    const bin = await putToSlot(a!, binary);
    expect(bin.status).toBe(422);
    expect(bin.body.error.details).toMatchObject({ filename: 'a.txt', reason: 'not_utf8' });
    // More bytes than the slot: a readable 413, not a reset, even for a 12 MB body.
    const big = await putToSlot(a!, new Uint8Array(12 * 1024 * 1024).fill(0x61));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { filename: 'a.txt', reason: 'too_large' } });
    // A file that is not a PDF in a PDF slot.
    const notPdf = await putToSlot(b!, 'hello, this is text');
    expect(notPdf.body.error.details).toMatchObject({ filename: 'b.pdf', reason: 'unreadable_pdf' });
    // The slot survived the refusals; once used, it is refused.
    expect((await putToSlot(a!, text)).status).toBe(200);
    const reused = await putToSlot(a!, text);
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ code: 'CONFLICT', details: { filename: 'a.txt', reason: 'slot_used' } });
    // An unknown token.
    expect((await putToSlot({ ...a!, url: a!.url.replace(/[^/]+$/, 'nope') }, text)).status).toBe(403);
  });

  it('refuses an expired slot with 403, and a slot of a confirmed batch with 409', async () => {
    const text = 'Refunds are issued within five days.';
    const opened = await openBatch(t, { jwt: alice }, conn, [
      { name: 'late.txt', content: text },
      { name: 'on-time.txt', content: text },
    ]);
    expect(opened.status).toBe(201);
    const [late, onTime] = opened.body.data.slots as UploadSlot[];
    expect((await putToSlot(onTime!, text)).status).toBe(200);
    skewMs = 16 * 60 * 1000; // one minute past the slots' 15
    try {
      const expired = await putToSlot(late!, text);
      expect(expired.status).toBe(403);
      expect(expired.body.error).toMatchObject({ code: 'FORBIDDEN', details: { filename: 'late.txt', reason: 'slot_expired' } });
      // The batch cannot be confirmed without the file whose slot expired.
      const confirm = await t.request('POST', `${batches(conn)}/${opened.body.data.batch_id}/confirm`, { jwt: alice });
      expect(confirm.status).toBe(422);
      expect(confirm.body.error.details).toMatchObject({ filename: 'late.txt', reason: 'not_uploaded' });
    } finally {
      skewMs = 0;
    }
    // Within its time, a confirmed batch's slot is spent.
    const second = await openBatch(t, { jwt: alice }, conn, [{ name: 'spent.txt', content: text }]);
    const [spent] = second.body.data.slots as UploadSlot[];
    expect((await putToSlot(spent!, text)).status).toBe(200);
    expect((await t.request('POST', `${batches(conn)}/${second.body.data.batch_id}/confirm`, { jwt: alice })).status).toBe(202);
    const again = await putToSlot(spent!, text);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { filename: 'spent.txt', reason: 'slot_used' } });
    expect((await waitForBatch(t, { jwt: alice }, conn, second.body.data.batch_id)).status).toBe('completed');
  });

  it('fails the whole batch when a file is refused at ingestion, naming each refused file and storing nothing', async () => {
    const before = await chunkRows();
    const res = await uploadThroughSlots(t, { jwt: alice }, conn, [
      { name: 'fine.md', content: '# Fine\n\nA good file.' },
      { name: 'broken.pdf', content: '%PDF-1.7\ngarbage that is no PDF' },
      { name: 'blank.txt', content: '   \n\n  ' },
    ]);
    expect(res.status).toBe(202);
    const done = await waitForBatch(t, { jwt: alice }, conn, res.body.data.batch_id);
    expect(done.status).toBe('failed');
    expect(done.result).toBeNull();
    expect(done.error).toMatchObject({ code: 'DOCUMENT_REJECTED', details: { filename: 'broken.pdf', reason: 'unreadable_pdf' } });
    expect(done.rejections.map((r: { filename: string; reason: string }) => `${r.filename}:${r.reason}`)).toEqual([
      'broken.pdf:unreadable_pdf',
      'blank.txt:empty',
    ]);
    expect(await chunkRows()).toBe(before);
    const listed = await t.request('GET', `/connections/${conn}/documents`, { jwt: alice });
    expect(listed.body.data.map((d: { filename: string }) => d.filename)).not.toContain('fine.md');
  });

  it('answers an oversized multipart upload with a 413 that fetch can read', async () => {
    // One 12 MB file, and 50 files of 10.3 MB in all: both over the gateway's 10 MB body limit.
    const one = [{ name: 'big.txt', content: new Uint8Array(12 * 1024 * 1024).fill(0x61) }];
    const many = Array.from({ length: 50 }, (_, i) => ({ name: `part${i}.txt`, content: new Uint8Array(Math.ceil((10.3 * 1024 * 1024) / 50)).fill(0x62) }));
    for (const files of [one, many]) {
      const res = await t.request('POST', `/connections/${conn}/documents/upload`, { jwt: alice, body: uploadForm(files) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'PAYLOAD_TOO_LARGE' } });
    }
  });

  it('answers a body that streams past the limit with a 413 envelope that fetch reads after sending it all', async () => {
    // A fetch-based client streaming 16 MB (chunked, no declared length) in 64 KB pieces, a turn of
    // the event loop apart: the service decides while the client is still sending. A gateway that
    // answers and closes at once makes fetch fail with a connection reset; this one reads and
    // discards the rest, so the whole body is sent and the envelope is read.
    const piece = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 16 * 1024 * 1024) return controller.close();
        await new Promise((r) => setImmediate(r));
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
    const res = await fetch(`${t.runtime.baseUrl}/connections/${conn}/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'multipart/form-data; boundary=b' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, data: null, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(sent).toBe(16 * 1024 * 1024);
  });

  it('answers /health while a large file is being ingested', async () => {
    // About 2.4 MB of SQL, 30,000 statements: parsing and chunking take seconds on this machine.
    const sql = Array.from({ length: 30_000 }, (_, i) => `INSERT INTO orders (id, note) VALUES (${i}, 'order number ${i} shipped on time');`).join('\n');
    const res = await uploadThroughSlots(t, { jwt: alice }, conn, [{ name: 'big.sql', content: sql }]);
    expect(res.status).toBe(202);
    const id = res.body.data.batch_id;
    await new Promise((r) => setTimeout(r, 300));
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    // The health answer came back while the file was still being parsed and chunked (on an
    // extraction thread): it is not staged yet. Parsing on the request loop would have held the
    // health check until after staging.
    const staged = await t.runtime.container.store.query<{ staged_chunks: number | null }>(
      'SELECT staged_chunks FROM document_batch_files WHERE batch_id = $1',
      [id],
    );
    expect(staged.rows[0]!.staged_chunks).toBeNull();
    const during = await t.request('GET', `${batches(conn)}/${id}`, { jwt: alice });
    expect(['queued', 'ingesting']).toContain(during.body.data.status);
    expect((await waitForBatch(t, { jwt: alice }, conn, id)).status).toBe('completed');
  });
});
