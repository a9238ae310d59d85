import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteDocument, listDocuments } from '../documents/document-store';
import { ingestDocuments } from '../documents/ingest-documents';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import { isAppError } from '../errors/app-error';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgliteStore } from '../store/pglite-store';
import { loadSettings } from '../config';
import { systemClock } from '../util/clock';
import { findRelevantDocumentChunks } from './document-context';

const md = (s: string): { filename: string; bytes: Uint8Array } => ({ filename: '', bytes: new TextEncoder().encode(s) });
const file = (filename: string, s: string) => ({ ...md(s), filename });

describe('document context ranking and storage', () => {
  let store: PgliteStore;
  const embedder = new HashingEmbedder();
  const user = randomUUID();
  const other = randomUUID();
  const conn = randomUUID();
  const conn2 = randomUUID();
  const deps = () => ({ store, embedder, clock: systemClock, settings: loadSettings({}) });

  beforeAll(async () => {
    store = await PgliteStore.open();
    await migrate(store, serviceMigrations);
    for (const id of [user, other]) await store.query(`INSERT INTO users (id, issuer, subject) VALUES ($1::uuid, 'test', $1::text)`, [id]);
  });
  afterAll(() => store.close());

  it('ranks a chunk that names the table above a closer one that does not', async () => {
    await ingestDocuments(deps(), {
      userId: user,
      connectionId: conn,
      files: [
        // Very similar wording to the query, but never names the table.
        file('similar.md', '# Customer refunds\nHow customer refunds are approved by the finance team every week.'),
        file('names.md', '# Ledger\nThe ledger_entries table records money moves. Unrelated prose about weather.'),
        file('noise.txt', 'Office plants need water on Mondays.'),
      ],
    });
    const ranked = await findRelevantDocumentChunks(store, embedder, {
      userId: user,
      connectionId: conn,
      query: 'how are customer refunds approved',
      tableNames: ['public.ledger_entries'],
      limit: 10,
    });
    expect(ranked.map((r) => r.document_filename)).toEqual(['names.md', 'similar.md', 'noise.txt']);
    expect(ranked[0]).toMatchObject({ mentioned_tables: ['ledger_entries'], heading: 'Ledger', chunk_index: 0 });
    expect(ranked[0]!.relevance).toBeGreaterThanOrEqual(0.5);
    expect(ranked[1]!.relevance).toBeLessThan(0.5);

    // Without table names, the query similarity alone decides.
    const byQuery = await findRelevantDocumentChunks(store, embedder, {
      userId: user,
      connectionId: conn,
      query: 'how are customer refunds approved',
      tableNames: [],
      limit: 1,
    });
    expect(byQuery.map((r) => r.document_filename)).toEqual(['similar.md']);
  });

  it('only sees the caller’s chunks on that connection, and nothing for an empty request', async () => {
    await ingestDocuments(deps(), { userId: other, connectionId: conn, files: [file('secret.md', 'ledger_entries are secret here')] });
    await ingestDocuments(deps(), { userId: user, connectionId: conn2, files: [file('elsewhere.md', 'ledger_entries on another connection')] });
    const ranked = await findRelevantDocumentChunks(store, embedder, {
      userId: user,
      connectionId: conn,
      query: 'ledger',
      tableNames: ['ledger_entries'],
      limit: 50,
    });
    expect(ranked.map((r) => r.document_filename).sort()).toEqual(['names.md', 'noise.txt', 'similar.md']);
    expect(await findRelevantDocumentChunks(store, embedder, { userId: user, connectionId: conn, query: ' ', tableNames: [], limit: 5 })).toEqual([]);
    expect(await findRelevantDocumentChunks(store, embedder, { userId: user, connectionId: conn, query: 'ledger', tableNames: [], limit: 0 })).toEqual([]);
  });

  it('ignores vectors of another embedding model', async () => {
    const other = { model: 'other-model', dimension: 384, embed: (t: readonly string[]) => embedder.embed(t) };
    const ranked = await findRelevantDocumentChunks(store, other, { userId: user, connectionId: conn, query: 'ledger', tableNames: [], limit: 5 });
    expect(ranked).toEqual([]);
  });

  it('replaces a document of the same filename in place and stores nothing of a rejected batch', async () => {
    const before = (await listDocuments(store, user, conn)).find((d) => d.filename === 'noise.txt')!;
    const res = await ingestDocuments(deps(), { userId: user, connectionId: conn, files: [file('noise.txt', 'Para one.\n\nPara two about invoices.')] });
    expect(res.documents[0]).toMatchObject({ id: before.id, replaced: true, chunk_count: 1 });
    const chunks = await store.query<{ content: string }>('SELECT content FROM document_chunks WHERE document_id = $1', [before.id]);
    expect(chunks.rows.map((r) => r.content)).toEqual(['Para one.\n\nPara two about invoices.']);

    const count = async () => (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks')).rows[0]!.n;
    const n = await count();
    await expect(
      ingestDocuments(deps(), { userId: user, connectionId: conn, files: [file('fresh.md', 'fine'), file('noise.txt', 'replaced?'), file('bad.exe', 'x')] }),
    ).rejects.toMatchObject({ code: 'DOCUMENT_REJECTED', details: { filename: 'bad.exe' } });
    expect(await count()).toBe(n);
    expect((await listDocuments(store, user, conn)).map((d) => d.filename)).not.toContain('fresh.md');
  });

  it('deletes a document with its chunks; another user gets NOT_FOUND', async () => {
    const doc = (await listDocuments(store, user, conn)).find((d) => d.filename === 'similar.md')!;
    const err = await deleteDocument(store, other, conn, doc.id).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('NOT_FOUND');
    await deleteDocument(store, user, conn, doc.id);
    const left = await store.query('SELECT 1 FROM document_chunks WHERE document_id = $1', [doc.id]);
    expect(left.rows).toHaveLength(0);
  });
});
