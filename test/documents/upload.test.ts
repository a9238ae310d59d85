import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConnection } from '../support/connections';
import { makePdf, uploadDocuments, uploadForm } from '../support/documents';
import { createScratchDatabase } from '../support/scratch-database';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

describe('document upload, listing and delete', () => {
  let t: TestRuntime;
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let alice: string;
  let bob: string;
  let conn: string;
  let bobConn: string;
  const path = (c: string) => `/connections/${c}/documents`;
  const chunkCount = async (): Promise<number> =>
    (await t.runtime.container.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks')).rows[0]!.n;

  beforeAll(async () => {
    // The gateway's 10 MB body limit is raised so the handler's own per-file limit can be hit.
    t = await startTestRuntime({ env: { DBOPS_MAX_BODY_BYTES: String(25 * 1024 * 1024) } });
    db = await createScratchDatabase('docs');
    alice = await t.jwt('alice');
    bob = await t.jwt('bob');
    conn = (await registerConnection(t, 'alice', db.url)).id;
    bobConn = (await registerConnection(t, 'bob', db.url)).id;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('indexes a PDF, Markdown, plain text and SQL file in one batch', async () => {
    const pdf = await makePdf([['Fulfilment handbook', '', 'Every order in the orders table ships within two days.'], ['Returns are logged in returns.']]);
    const res = await uploadDocuments(t, { jwt: alice }, conn, [
      { name: 'handbook.pdf', content: pdf, type: 'application/pdf' },
      { name: 'glossary.md', content: '# Glossary\n\n## Customer\nA customer places orders.\n\n## Invoice\nSent monthly.' },
      { name: 'notes.txt', content: 'Plain notes about the warehouse.\n\nSecond paragraph.' },
      {
        name: 'schema.sql',
        content: 'CREATE TABLE orders (id bigint PRIMARY KEY);\n-- refunds\nCREATE TABLE refunds (id bigint, order_id bigint REFERENCES orders);',
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(data.files_processed).toBe(4);
    expect(data.documents.map((d: { filename: string }) => d.filename)).toEqual(['handbook.pdf', 'glossary.md', 'notes.txt', 'schema.sql']);
    expect(data.documents.map((d: { content_type: string }) => d.content_type)).toEqual(['application/pdf', 'text/markdown', 'text/plain', 'application/sql']);
    expect(data.documents[0].size_bytes).toBe(pdf.length);
    expect(data.documents[1].chunk_count).toBe(2); // one chunk per heading section
    expect(data.total_chunks).toBe(data.documents.reduce((s: number, d: { chunk_count: number }) => s + d.chunk_count, 0));
    for (const d of data.documents) expect(d).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), replaced: false });

    const rows = await t.runtime.container.store.query<{
      filename: string;
      heading: string | null;
      content: string;
      embedding_model: string;
      embedding_dimension: number;
    }>(
      `SELECT d.filename, c.heading, c.content, c.embedding_model, c.embedding_dimension FROM document_chunks c JOIN documents d ON d.id = c.document_id
       WHERE d.connection_id = $1 ORDER BY d.filename, c.chunk_index`,
      [conn],
    );
    const text = (f: string) => rows.rows.filter((r) => r.filename === f).map((r) => r.content);
    expect(text('handbook.pdf').join('\n')).toContain('Every order in the orders table ships within two days.');
    expect(text('handbook.pdf').join('\n')).toContain('Returns are logged in returns.');
    expect(rows.rows.filter((r) => r.filename === 'glossary.md').map((r) => r.heading)).toEqual(['Glossary > Customer', 'Glossary > Invoice']);
    expect(text('schema.sql').join('\n')).toContain('-- refunds\nCREATE TABLE refunds');
    expect(new Set(rows.rows.map((r) => `${r.embedding_model}/${r.embedding_dimension}`))).toEqual(new Set(['dbops-hashing-v1/384']));
  });

  it('lists documents with id, filename, chunk_count, size_bytes, content_type and uploaded_at', async () => {
    const res = await t.request('GET', path(conn), { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(4);
    for (const d of res.body.data) {
      expect(Object.keys(d).sort()).toEqual(['chunk_count', 'content_type', 'filename', 'id', 'size_bytes', 'uploaded_at']);
      expect(new Date(d.uploaded_at).toISOString()).toBe(d.uploaded_at);
      expect(d.chunk_count).toBeGreaterThan(0);
    }
    // API keys act as their owner.
    const key = await t.apiKey('alice');
    expect((await t.request('GET', path(conn), { apiKey: key })).body.data).toHaveLength(4);
  });

  it('replaces a document of the same filename: same id, new content and chunks only', async () => {
    const before = (await t.request('GET', path(conn), { jwt: alice })).body.data.find((d: { filename: string }) => d.filename === 'notes.txt');
    const res = await uploadDocuments(t, { jwt: alice }, conn, [{ name: 'notes.txt', content: 'Rewritten: the loading dock closes at 6pm.' }]);
    expect(res.status).toBe(200);
    expect(res.body.data.documents[0]).toMatchObject({ id: before.id, filename: 'notes.txt', replaced: true, chunk_count: 1 });
    const listed = (await t.request('GET', path(conn), { jwt: alice })).body.data;
    expect(listed).toHaveLength(4);
    const after = listed.find((d: { filename: string }) => d.filename === 'notes.txt');
    expect(after.size_bytes).toBe(Buffer.byteLength('Rewritten: the loading dock closes at 6pm.'));
    expect(after.uploaded_at >= before.uploaded_at).toBe(true);
    const chunks = await t.runtime.container.store.query<{ content: string }>('SELECT content FROM document_chunks WHERE document_id = $1', [before.id]);
    expect(chunks.rows.map((r) => r.content)).toEqual(['Rewritten: the loading dock closes at 6pm.']);
  });

  describe('rejections store nothing of the batch', () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    it.each([
      [
        'an unsupported type',
        [
          { name: 'ok.md', content: '# fine' },
          { name: 'photo.png', content: 'x', type: 'image/png' },
        ],
        422,
        'DOCUMENT_REJECTED',
        'photo.png',
        'unsupported_type',
      ],
      [
        'an empty file',
        [
          { name: 'ok.md', content: '# fine' },
          { name: 'empty.txt', content: '' },
        ],
        422,
        'DOCUMENT_REJECTED',
        'empty.txt',
        'empty',
      ],
      ['a file of whitespace', [{ name: 'blank.md', content: '  \n\n ' }], 422, 'DOCUMENT_REJECTED', 'blank.md', 'empty'],
      ['a binary file named .txt', [{ name: 'bin.txt', content: new Uint8Array([1, 0, 2]) }], 422, 'DOCUMENT_REJECTED', 'bin.txt', 'not_utf8'],
      ['a fake PDF', [{ name: 'fake.pdf', content: 'just text' }], 422, 'DOCUMENT_REJECTED', 'fake.pdf', 'unreadable_pdf'],
      [
        'a file over 10 MB',
        [
          { name: 'ok.md', content: '# fine' },
          { name: 'huge.txt', content: big },
        ],
        413,
        'PAYLOAD_TOO_LARGE',
        'huge.txt',
        'too_large',
      ],
      [
        'the same filename twice',
        [
          { name: 'twice.md', content: 'a' },
          { name: 'twice.md', content: 'b' },
        ],
        422,
        'DOCUMENT_REJECTED',
        'twice.md',
        'duplicate_filename',
      ],
    ])('rejects %s naming the file', async (_label, files, status, code, filename, reason) => {
      const before = await chunkCount();
      const res = await uploadDocuments(t, { jwt: alice }, conn, files);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code, details: { filename, reason } } });
      expect(res.body.error.message).toContain(filename);
      expect(await chunkCount()).toBe(before);
      expect((await t.request('GET', path(conn), { jwt: alice })).body.data.map((d: { filename: string }) => d.filename)).not.toContain('ok.md');
    });

    it('rejects a PDF with no extractable text', async () => {
      const res = await uploadDocuments(t, { jwt: alice }, conn, [{ name: 'scan.pdf', content: await makePdf([[], []]) }]);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'DOCUMENT_REJECTED', details: { filename: 'scan.pdf', reason: 'no_text' } });
    });

    it('rejects the 51st file of a batch by name', async () => {
      const files = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.md`, content: `file ${i}` }));
      const res = await uploadDocuments(t, { jwt: alice }, conn, files);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'DOCUMENT_REJECTED', details: { filename: 'f50.md', reason: 'too_many_files', limit_files: 50 } });
      expect((await t.request('GET', path(conn), { jwt: alice })).body.data.map((d: { filename: string }) => d.filename)).not.toContain('f0.md');
    });

    it('accepts exactly 50 files', async () => {
      const files = Array.from({ length: 50 }, (_, i) => ({ name: `batch-${i}.md`, content: `# Note ${i}\nbody ${i}` }));
      const res = await uploadDocuments(t, { jwt: bob }, bobConn, files);
      expect(res.status).toBe(200);
      expect(res.body.data.files_processed).toBe(50);
    });

    it('answers 415 for a non-multipart body, 400 for a malformed one, 422 when no file is sent', async () => {
      const json = await t.request('POST', `${path(conn)}/upload`, { jwt: alice, body: { files: [] } });
      expect(json.status).toBe(415);
      expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

      const noBoundary = await t.request('POST', `${path(conn)}/upload`, { jwt: alice, body: 'x', headers: { 'content-type': 'multipart/form-data' } });
      expect(noBoundary.status).toBe(400);
      expect(noBoundary.body.error.code).toBe('BAD_REQUEST');

      const truncated = '--b\r\nContent-Disposition: form-data; name="files"; filename="a.md"\r\nContent-Type: text/markdown\r\n\r\n# half a file';
      const cut = await t.request('POST', `${path(conn)}/upload`, {
        jwt: alice,
        body: truncated,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      });
      expect(cut.status).toBe(400);
      expect(cut.body.error.message).toMatch(/Malformed multipart/);

      const none = await t.request('POST', `${path(conn)}/upload`, { jwt: alice, body: new FormData() });
      expect(none.status).toBe(422);
      expect(none.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files'], type: 'missing' })]);

      const textField = new FormData();
      textField.append('files', 'not a file');
      const field = await t.request('POST', `${path(conn)}/upload`, { jwt: alice, body: textField });
      expect(field.status).toBe(422);
      expect(field.body.error).toMatchObject({ code: 'DOCUMENT_REJECTED', details: { reason: 'invalid_filename' } });
    });

    it('keeps only the last path component of a filename', async () => {
      const form = uploadForm([{ name: 'C:\\Users\\me\\plan.md', content: '# Plan' }]);
      const res = await t.request('POST', `${path(conn)}/upload`, { jwt: alice, body: form });
      expect(res.status).toBe(200);
      expect(res.body.data.documents[0].filename).toBe('plan.md');
    });
  });

  it("hides another user's connection and documents: 404 everywhere", async () => {
    const doc = (await t.request('GET', path(conn), { jwt: alice })).body.data[0];
    expect((await t.request('GET', path(conn), { jwt: bob })).status).toBe(404);
    expect((await uploadDocuments(t, { jwt: bob }, conn, [{ name: 'x.md', content: 'x' }])).status).toBe(404);
    const del = await t.request('DELETE', `${path(conn)}/${doc.id}`, { jwt: bob });
    expect(del.status).toBe(404);
    // Bob's own connection with Alice's document id: still 404, and the document survives.
    expect((await t.request('DELETE', `${path(bobConn)}/${doc.id}`, { jwt: bob })).status).toBe(404);
    expect((await t.request('GET', path(conn), { jwt: alice })).body.data.map((d: { id: string }) => d.id)).toContain(doc.id);
    expect((await t.request('GET', path('00000000-0000-4000-8000-000000000000'), { jwt: alice })).status).toBe(404);
    expect((await t.request('GET', path('not-a-uuid'), { jwt: alice })).status).toBe(422);
  });

  it('deletes a document and its chunks', async () => {
    const doc = (await t.request('GET', path(conn), { jwt: alice })).body.data.find((d: { filename: string }) => d.filename === 'glossary.md');
    const res = await t.request('DELETE', `${path(conn)}/${doc.id}`, { jwt: alice });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: doc.id, deleted: true }, error: null });
    expect((await t.request('GET', path(conn), { jwt: alice })).body.data.map((d: { id: string }) => d.id)).not.toContain(doc.id);
    const left = await t.runtime.container.store.query('SELECT 1 FROM document_chunks WHERE document_id = $1', [doc.id]);
    expect(left.rows).toHaveLength(0);
    expect((await t.request('DELETE', `${path(conn)}/${doc.id}`, { jwt: alice })).status).toBe(404);
  });

  it('is free: no credits are charged', async () => {
    const res = await uploadDocuments(t, { jwt: alice }, conn, [{ name: 'free.md', content: 'free' }]);
    expect(res.headers.get('x-credits-remaining')).toBeNull();
  });
});
