import { randomUUID } from 'node:crypto';
import type { DocumentLimitSettings } from '../config';
import type { Embedder } from '../embeddings/embedder';
import { type AppError, isAppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { turnEventLoop } from '../util/turn-event-loop';
import { rejectDocument } from './document-rejection';
import { collectRetiredGenerations, lockPendingGeneration, openGeneration, retireGeneration } from './document-generations';
import { type ChunkTarget, documentIdFor, insertChunks, type StoredDocument, switchDocument } from './document-store';
import { extractDocument, type ExtractedPart } from './extract-document';
import { EXTRACT_THREADS } from './extract-threads';
import { settleAll } from './ingest-documents';
import { MAX_FILE_BYTES } from './limits';
import { rejectionOf } from './upload-batches';
import type { UploadStorage } from './upload-storage';

/**
 * Chunk rows per staging transaction (two 200-row statements): about 100-250 ms of PGlite under
 * load, the longest a request waits on staging; 1,000 rows made /health wait up to 1 s.
 */
const ROWS_PER_TX = 400;

export type IngestDisposition = 'completed' | 'failed' | 'skipped';

interface FileRow {
  position: number;
  filename: string;
  size_bytes: number;
  media_type: string;
  storage_key: string;
  staged_chunks: number | null;
  content_type: string | null;
  sha256: string | null;
  document_id: string | null;
  generation: string | null;
  part_counts: number[] | null;
}

const FILE_COLUMNS = 'position, filename, size_bytes, media_type, storage_key, staged_chunks, content_type, sha256, document_id, generation, part_counts';

/** Test hook: called after each file is completely staged (a crash test stops the process there). */
export interface IngestHooks {
  afterFileStaged?(position: number): Promise<void> | void;
  /** Called when a phase ends, with its wall time: the ingestion handler logs them (benches read them there). */
  onPhase?(phase: 'staged' | 'stored' | 'collected', ms: number): void;
}

interface Deps {
  store: Store;
  embedder: Embedder;
  storage: UploadStorage;
  settings: { documentLimits: DocumentLimitSettings };
}

/**
 * Writes one part's chunks into `document_chunks` under the file's pending generation, a few
 * statements per transaction: on PGlite each commit syncs the data directory (autocommitted rows
 * made this about 3x slower), and short transactions leave the store free for other requests.
 */
async function writePart(store: Store, target: ChunkTarget, part: ExtractedPart): Promise<void> {
  for (let start = 0; start < part.chunks.length; start += ROWS_PER_TX) {
    await store.transaction(async (tx) => {
      await lockPendingGeneration(tx, target.generation, 'share');
      await insertChunks(
        tx,
        { ...target, part: part.share },
        part.first + start,
        part.chunks.slice(start, start + ROWS_PER_TX),
        part.vectors.slice(start, start + ROWS_PER_TX),
      );
    });
    await turnEventLoop();
  }
}

/**
 * Extracts one file straight into `document_chunks`, under a new generation no reader sees until
 * the batch switches. A file whose staging did not finish (a crash, a superseded delivery) gets a
 * new generation; the old one is retired and its chunks deleted later.
 */
async function stageFile(deps: Deps, batch: { id: string; user_id: string; connection_id: string }, f: FileRow): Promise<void> {
  const bytes = await deps.storage.read(f.storage_key);
  if (!bytes) throw rejectDocument(f.filename, 'not_uploaded', `${f.filename} is no longer in upload storage; upload it again`);
  if (bytes.length > MAX_FILE_BYTES)
    throw rejectDocument(f.filename, 'too_large', `${f.filename} is larger than the 10 MB limit per file`, { limit_bytes: MAX_FILE_BYTES });
  if (bytes.length !== Number(f.size_bytes)) {
    throw rejectDocument(f.filename, 'size_mismatch', `${f.filename} is ${bytes.length} bytes; its slot was made for ${f.size_bytes}`);
  }
  const scope = { userId: batch.user_id, connectionId: batch.connection_id };
  const generation = randomUUID();
  const documentId = await deps.store.transaction(async (tx) => {
    if (f.generation && f.document_id) await retireGeneration(tx, f.document_id, f.generation);
    const id = await documentIdFor(tx, scope, f.filename);
    await openGeneration(tx, generation, id, batch.id);
    await tx.query('UPDATE document_batch_files SET document_id = $3, generation = $4 WHERE batch_id = $1 AND position = $2', [
      batch.id,
      f.position,
      id,
      generation,
    ]);
    return id;
  });
  const target = { documentId, generation, ...scope, model: deps.embedder.model, dimension: deps.embedder.dimension, part: 0 };
  const meta = await extractDocument({ filename: f.filename, mediaType: f.media_type, bytes }, deps.embedder, (part) => writePart(deps.store, target, part), {
    owner: batch.user_id,
    limits: deps.settings.documentLimits,
  });
  await deps.store.transaction(async (tx) => {
    await lockPendingGeneration(tx, generation, 'update');
    const n = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunks WHERE document_id = $1 AND generation = $2', [
      documentId,
      generation,
    ]);
    if (n.rows[0]!.n !== meta.chunkCount) throw new Error(`${f.filename}: ${n.rows[0]!.n} chunks written, ${meta.chunkCount} extracted`);
    await tx.query(
      'UPDATE document_batch_files SET staged_chunks = $4, content_type = $5, sha256 = $6, part_counts = $7 WHERE batch_id = $1 AND position = $2 AND generation = $3',
      [batch.id, f.position, generation, meta.chunkCount, meta.contentType, meta.sha256, meta.shareCounts],
    );
  });
}

/** Where each share starts in the document; null for a single share (numbered as is). */
function partOffsets(counts: readonly number[] | null): number[] | null {
  if (!counts || counts.length <= 1) return null;
  let sum = 0;
  return counts.map((n) => {
    const at = sum;
    sum += n;
    return at;
  });
}

/**
 * Ingests a confirmed batch, exactly once however often it is delivered or interrupted:
 * 1. claim it (queued or ingesting -> ingesting; a finished batch is left alone);
 * 2. stage every file not yet staged: extraction threads stream its chunks, with vectors, into
 *    `document_chunks` under a pending generation of the file (invisible to every reader) while
 *    later pages are still read, in short transactions;
 * 3. if any file was refused: the batch fails, naming every refused file, its generations are
 *    retired and nothing becomes visible;
 * 4. otherwise ONE short transaction switches the documents rows to their new generations
 *    (retiring the ones they replace) and marks the batch completed with its result. A crash
 *    before the commit leaves the staged files to resume from; after it, the batch is completed
 *    and a redelivery does nothing;
 * 5. retired generations' chunks are deleted, a bounded number per transaction.
 */
export async function ingestUploadBatch(deps: Deps & { clock: Clock }, batchId: string, hooks: IngestHooks = {}): Promise<IngestDisposition> {
  const claimed = await deps.store.query<{ user_id: string; connection_id: string }>(
    `UPDATE document_batches SET status = 'ingesting' WHERE id = $1 AND status IN ('queued', 'ingesting') RETURNING user_id, connection_id`,
    [batchId],
  );
  const batch = claimed.rows[0];
  if (!batch) return 'skipped';
  const files = (await deps.store.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM document_batch_files WHERE batch_id = $1 ORDER BY position`, [batchId])).rows;

  let phaseStart = performance.now();
  const settled = await settleAll(files, EXTRACT_THREADS, async (f) => {
    if (f.staged_chunks === null) {
      await stageFile(deps, { id: batchId, ...batch }, f);
      await hooks.afterFileStaged?.(f.position);
    }
  });
  const rejected: AppError[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') continue;
    // Anything but a refusal of the file (the store, the storage) is retried by redelivery.
    if (!isAppError(s.reason)) throw s.reason;
    rejected.push(s.reason);
  }
  hooks.onPhase?.('staged', performance.now() - phaseStart);
  phaseStart = performance.now();
  const keys = files.map((f) => f.storage_key);
  const now = deps.clock.now();

  if (rejected.length > 0) {
    const first = rejected[0]!;
    const rejections = rejected.map(rejectionOf);
    // The written chunks go before the batch reads `failed`: a client that sees it finds nothing left.
    await deps.store.query(`UPDATE document_generations SET state = 'retired' WHERE batch_id = $1 AND state = 'pending'`, [batchId]);
    await collectRetiredGenerations(deps.store);
    await deps.store.query(
      `UPDATE document_batches SET status = 'failed', finished_at = $2, error = $3, rejections = $4 WHERE id = $1 AND status = 'ingesting'`,
      [batchId, now, JSON.stringify({ ...first.toBody(), details: { ...first.details, rejections } }), JSON.stringify(rejections)],
    );
    await deps.storage.remove(keys).catch(() => undefined);
    return 'failed';
  }

  const staged = (await deps.store.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM document_batch_files WHERE batch_id = $1 ORDER BY position`, [batchId])).rows;
  // The switch: documents rows only, however many chunks the batch wrote.
  const done = await deps.store.transaction(async (tx) => {
    const status = await tx.query<{ status: string }>('SELECT status FROM document_batches WHERE id = $1 FOR UPDATE', [batchId]);
    if (status.rows[0]?.status !== 'ingesting') return false;
    const scope = { userId: batch.user_id, connectionId: batch.connection_id, now };
    // The replaced rows are locked in filename order first, so two batches that share filenames
    // cannot deadlock on a server.
    await tx.query('SELECT 1 FROM documents WHERE user_id = $1 AND connection_id = $2 AND filename = ANY($3::text[]) ORDER BY filename FOR UPDATE', [
      batch.user_id,
      batch.connection_id,
      staged.map((f) => f.filename),
    ]);
    const documents: StoredDocument[] = [];
    for (const f of staged) {
      // Another delivery restaged this file meanwhile: roll back and let redelivery finish it.
      if (f.staged_chunks === null || !f.generation || !f.document_id) throw new Error(`${f.filename} is not staged`);
      await lockPendingGeneration(tx, f.generation, 'update');
      const chunkCount = Number(f.staged_chunks);
      const row = await switchDocument(
        tx,
        scope,
        { documentId: f.document_id, generation: f.generation, partOffsets: partOffsets(f.part_counts) },
        { filename: f.filename, contentType: f.content_type!, sizeBytes: Number(f.size_bytes), sha256: f.sha256!, chunkCount },
      );
      documents.push({
        id: row.id,
        filename: f.filename,
        chunk_count: chunkCount,
        size_bytes: Number(f.size_bytes),
        content_type: f.content_type!,
        replaced: row.replaced,
      });
    }
    const result = { files_processed: documents.length, total_chunks: documents.reduce((s, d) => s + d.chunk_count, 0), documents };
    await tx.query(`UPDATE document_batches SET status = 'completed', finished_at = $2, result = $3 WHERE id = $1`, [batchId, now, JSON.stringify(result)]);
    return true;
  });
  hooks.onPhase?.('stored', performance.now() - phaseStart);
  await deps.storage.remove(keys).catch(() => undefined);
  // The replaced documents' chunks (and any a crash left), in short transactions.
  phaseStart = performance.now();
  await collectRetiredGenerations(deps.store);
  hooks.onPhase?.('collected', performance.now() - phaseStart);
  return done ? 'completed' : 'skipped';
}
