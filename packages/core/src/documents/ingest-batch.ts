import type { Embedder } from '../embeddings/embedder';
import { type AppError, isAppError } from '../errors/app-error';
import type { Queryable, Store } from '../store/store';
import { vectorParam } from '../store/vector-param';
import type { Clock } from '../util/clock';
import type { DocumentChunk } from './chunk';
import { rejectDocument } from './document-rejection';
import { type StoredDocument, upsertDocumentRow } from './document-store';
import { embeddingText } from './embedding-text';
import { extractDocument, type ExtractedPart } from './extract-document';
import { EXTRACT_THREADS } from './extract-threads';
import { identifierTokens } from './identifiers';
import { settleAll } from './ingest-documents';
import { MAX_FILE_BYTES } from './limits';
import { rejectionOf } from './upload-batches';
import type { UploadStorage } from './upload-storage';

/** Rows per INSERT: big enough to be cheap, small enough that the event loop runs in between. */
const STAGE_BATCH = 200;
const MOVE_BATCH = 500;
const STAGE_STATEMENTS_PER_TX = 5;

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
}

/** Test hook: called after each file is completely staged (a crash test stops the process there). */
export interface IngestHooks {
  afterFileStaged?(position: number): Promise<void> | void;
  /** Called when a phase ends, with its wall time: the ingestion handler logs them (benches read them there). */
  onPhase?(phase: 'staged' | 'stored', ms: number): void;
}

async function stageChunks(store: Store, batchId: string, position: number, model: string, part: ExtractedPart): Promise<void> {
  // A few statements per transaction: on PGlite each commit syncs the data directory, so
  // autocommitted statements made staging about 3x slower; short transactions keep the
  // store free for other requests in between.
  for (let tx0 = 0; tx0 < part.chunks.length; tx0 += STAGE_BATCH * STAGE_STATEMENTS_PER_TX) {
    await store.transaction(async (tx) => {
      for (let start = tx0; start < Math.min(part.chunks.length, tx0 + STAGE_BATCH * STAGE_STATEMENTS_PER_TX); start += STAGE_BATCH) {
        const params: unknown[] = [batchId, position, part.part, model, part.vectors[0]?.length ?? 0];
        const rows: string[] = [];
        part.chunks.slice(start, start + STAGE_BATCH).forEach((c: DocumentChunk, i) => {
          const p = params.length;
          params.push(c.index, c.heading, c.content, identifierTokens(embeddingText(c)), vectorParam(part.vectors[start + i]!));
          rows.push(`($1, $2, $3, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::text[], $${p + 5}::vector, $4, $5)`);
        });
        // A redelivered message may race a slow first delivery: the key keeps each chunk once.
        await tx.query(
          `INSERT INTO document_batch_chunks (batch_id, position, part, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
           VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING`,
          params,
        );
      }
    });
  }
}

/** Extracts one file into the staging table; a file whose staging did not finish starts over. */
async function stageFile(deps: { store: Store; embedder: Embedder; storage: UploadStorage }, batchId: string, f: FileRow): Promise<void> {
  await deps.store.query('DELETE FROM document_batch_chunks WHERE batch_id = $1 AND position = $2', [batchId, f.position]);
  const bytes = await deps.storage.read(f.storage_key);
  if (!bytes) throw rejectDocument(f.filename, 'not_uploaded', `${f.filename} is no longer in upload storage; upload it again`);
  if (bytes.length > MAX_FILE_BYTES)
    throw rejectDocument(f.filename, 'too_large', `${f.filename} is larger than the 10 MB limit per file`, { limit_bytes: MAX_FILE_BYTES });
  if (bytes.length !== Number(f.size_bytes)) {
    throw rejectDocument(f.filename, 'size_mismatch', `${f.filename} is ${bytes.length} bytes; its slot was made for ${f.size_bytes}`);
  }
  const meta = await extractDocument({ filename: f.filename, mediaType: f.media_type, bytes }, deps.embedder, (part) =>
    stageChunks(deps.store, batchId, f.position, deps.embedder.model, part),
  );
  await deps.store.query('UPDATE document_batch_files SET staged_chunks = $3, content_type = $4, sha256 = $5 WHERE batch_id = $1 AND position = $2', [
    batchId,
    f.position,
    meta.chunkCount,
    meta.contentType,
    meta.sha256,
  ]);
}

/** Moves one file's staged chunks into document_chunks, numbered 0.. in (part, chunk) order. */
async function moveChunks(
  tx: Queryable,
  batchId: string,
  position: number,
  scope: { documentId: string; userId: string; connectionId: string },
): Promise<number> {
  const parts = await tx.query<{ part: number; n: number }>(
    'SELECT part, count(*)::int AS n FROM document_batch_chunks WHERE batch_id = $1 AND position = $2 GROUP BY part ORDER BY part',
    [batchId, position],
  );
  let offset = 0;
  for (const { part, n } of parts.rows) {
    // Chunk indexes within a part run 0..n-1, so ranges of them cut the move into short statements.
    for (let from = 0; from < n; from += MOVE_BATCH) {
      await tx.query(
        `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
         SELECT $3, $4, $5, $6 + chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension
         FROM document_batch_chunks WHERE batch_id = $1 AND position = $2 AND part = $7 AND chunk_index >= $8 AND chunk_index < $9`,
        [batchId, position, scope.documentId, scope.userId, scope.connectionId, offset, part, from, from + MOVE_BATCH],
      );
    }
    offset += n;
  }
  return offset;
}

class StagingIncomplete extends Error {}

/**
 * Ingests a confirmed batch, exactly once however often it is delivered or interrupted:
 * 1. claim it (queued or ingesting -> ingesting; a finished batch is left alone);
 * 2. stage every file not yet staged: extraction threads stream its chunks, with vectors, into
 *    `document_batch_chunks` while later pages are still read;
 * 3. if any file was refused: the batch fails, naming every refused file, and nothing is stored;
 * 4. otherwise ONE transaction upserts the documents, moves the staged chunks and marks the
 *    batch completed with its result. A crash before the commit leaves staging to resume from;
 *    after it, the batch is completed and a redelivery does nothing.
 */
export async function ingestUploadBatch(
  deps: { store: Store; embedder: Embedder; clock: Clock; storage: UploadStorage },
  batchId: string,
  hooks: IngestHooks = {},
): Promise<IngestDisposition> {
  const claimed = await deps.store.query<{ user_id: string; connection_id: string }>(
    `UPDATE document_batches SET status = 'ingesting' WHERE id = $1 AND status IN ('queued', 'ingesting') RETURNING user_id, connection_id`,
    [batchId],
  );
  const batch = claimed.rows[0];
  if (!batch) return 'skipped';
  const files = (
    await deps.store.query<FileRow>(
      'SELECT position, filename, size_bytes, media_type, storage_key, staged_chunks, content_type, sha256 FROM document_batch_files WHERE batch_id = $1 ORDER BY position',
      [batchId],
    )
  ).rows;

  let phaseStart = performance.now();
  const settled = await settleAll(files, EXTRACT_THREADS, async (f) => {
    if (f.staged_chunks === null) {
      await stageFile(deps, batchId, f);
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
    await deps.store.transaction(async (tx) => {
      await tx.query(`UPDATE document_batches SET status = 'failed', finished_at = $2, error = $3, rejections = $4 WHERE id = $1 AND status = 'ingesting'`, [
        batchId,
        now,
        JSON.stringify({ ...first.toBody(), details: { ...first.details, rejections } }),
        JSON.stringify(rejections),
      ]);
      await tx.query('DELETE FROM document_batch_chunks WHERE batch_id = $1', [batchId]);
    });
    await deps.storage.remove(keys).catch(() => undefined);
    return 'failed';
  }

  const staged = (
    await deps.store.query<FileRow>(
      'SELECT position, filename, size_bytes, media_type, storage_key, staged_chunks, content_type, sha256 FROM document_batch_files WHERE batch_id = $1 ORDER BY position',
      [batchId],
    )
  ).rows;
  const done = await deps.store.transaction(async (tx) => {
    const status = await tx.query<{ status: string }>('SELECT status FROM document_batches WHERE id = $1 FOR UPDATE', [batchId]);
    if (status.rows[0]?.status !== 'ingesting') return false;
    const scope = { userId: batch.user_id, connectionId: batch.connection_id, now };
    const documents: StoredDocument[] = [];
    for (const f of staged) {
      const chunkCount = Number(f.staged_chunks);
      const row = await upsertDocumentRow(tx, scope, {
        filename: f.filename,
        contentType: f.content_type!,
        sizeBytes: Number(f.size_bytes),
        sha256: f.sha256!,
        chunkCount,
      });
      const moved = await moveChunks(tx, batchId, f.position, { documentId: row.id, userId: batch.user_id, connectionId: batch.connection_id });
      // Another delivery restaged this file meanwhile: roll back and let redelivery finish it.
      if (moved !== chunkCount) throw new StagingIncomplete(`${f.filename}: ${moved} staged chunks, ${chunkCount} expected`);
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
    await tx.query('DELETE FROM document_batch_chunks WHERE batch_id = $1', [batchId]);
    await tx.query(`UPDATE document_batches SET status = 'completed', finished_at = $2, result = $3 WHERE id = $1`, [batchId, now, JSON.stringify(result)]);
    return true;
  });
  hooks.onPhase?.('stored', performance.now() - phaseStart);
  await deps.storage.remove(keys).catch(() => undefined);
  return done ? 'completed' : 'skipped';
}
