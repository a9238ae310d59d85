import { randomUUID } from 'node:crypto';
import type { Embedder } from '../embeddings/embedder';
import { notFound } from '../errors/app-error';
import type { Queryable, Store } from '../store/store';
import { vectorParam } from '../store/vector-param';
import { iso } from '../util/timestamps';
import type { DocumentChunk } from './chunk';
import { collectRetiredGenerations, openGeneration, publishGeneration, retireGeneration } from './document-generations';
import { embeddingText } from './embedding-text';
import { identifierTokens } from './identifiers';
import type { PreparedDocument } from './prepare-document';

/** A stored document as listed. */
export interface DocumentSummary {
  id: string;
  filename: string;
  chunk_count: number;
  size_bytes: number;
  content_type: string;
  uploaded_at: string;
}

/** One document of an upload result. */
export interface StoredDocument {
  id: string;
  filename: string;
  chunk_count: number;
  size_bytes: number;
  content_type: string;
  /** True when a document of the same filename existed and was replaced. */
  replaced: boolean;
}

/** A prepared document with one vector per chunk. */
export interface EmbeddedDocument {
  document: PreparedDocument;
  vectors: ArrayLike<number>[];
}

const EMBED_BATCH = 64;
const INSERT_BATCH = 200;

/** Embeds every chunk of `document` through the embedder port, in batches. */
export async function embedDocument(embedder: Embedder, document: PreparedDocument): Promise<EmbeddedDocument> {
  const vectors: ArrayLike<number>[] = [];
  for (let i = 0; i < document.chunks.length; i += EMBED_BATCH) {
    vectors.push(...(await embedder.embed(document.chunks.slice(i, i + EMBED_BATCH).map(embeddingText))));
  }
  return { document, vectors };
}

/** Where a run of chunks goes: its document, generation and share (see migration 0405). */
export interface ChunkTarget {
  documentId: string;
  generation: string;
  userId: string;
  connectionId: string;
  model: string;
  dimension: number;
  part: number;
}

/**
 * Writes chunks numbered `first`, `first + 1`, ... within their part, in statements of
 * {@link INSERT_BATCH} rows. `ON CONFLICT DO NOTHING`: a redelivered batch may race a slow first
 * delivery writing the same generation, and the key keeps each chunk once.
 */
export async function insertChunks(
  tx: Queryable,
  target: ChunkTarget,
  first: number,
  chunks: readonly DocumentChunk[],
  vectors: readonly ArrayLike<number>[],
): Promise<void> {
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const params: unknown[] = [target.documentId, target.userId, target.connectionId, target.model, target.dimension, target.generation, target.part];
    const rows: string[] = [];
    chunks.slice(start, start + INSERT_BATCH).forEach((c, i) => {
      const p = params.length;
      params.push(first + start + i, c.heading, c.content, identifierTokens(embeddingText(c)), vectorParam(vectors[start + i]!));
      rows.push(`($1, $2, $3, $6, $7, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::text[], $${p + 5}::vector, $4, $5)`);
    });
    await tx.query(
      `INSERT INTO document_chunks (document_id, user_id, connection_id, generation, part, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
       VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING`,
      params,
    );
  }
}

/** The fields of a document row, from a prepared or a staged file. */
export interface DocumentRowInput {
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  chunkCount: number;
}

/** The id a new generation of `filename` is written under: the existing document's, else a new one. */
export async function documentIdFor(db: Queryable, scope: { userId: string; connectionId: string }, filename: string): Promise<string> {
  const res = await db.query<{ id: string }>('SELECT id FROM documents WHERE user_id = $1 AND connection_id = $2 AND filename = $3', [
    scope.userId,
    scope.connectionId,
    filename,
  ]);
  return res.rows[0]?.id ?? randomUUID();
}

/**
 * Points the document of `d.filename` at `target.generation`, whose chunks are already written:
 * one row updated (or inserted), however many chunks. The generation it replaces is retired, its
 * chunks deleted later by {@link collectRetiredGenerations}. When the filename's row is no longer
 * the one the chunks were written for (it was deleted, or deleted and uploaded again, meanwhile),
 * that row is replaced by one with the chunks' document id.
 */
export async function switchDocument(
  tx: Queryable,
  scope: { userId: string; connectionId: string; now: Date },
  target: { documentId: string; generation: string; partOffsets: number[] | null },
  d: DocumentRowInput,
): Promise<{ id: string; replaced: boolean }> {
  const fields = [d.contentType, d.sizeBytes, d.sha256, d.chunkCount, scope.now, target.generation, target.partOffsets];
  let replaced = false;
  for (;;) {
    const current = await tx.query<{ id: string; generation: string }>(
      'SELECT id, generation FROM documents WHERE user_id = $1 AND connection_id = $2 AND filename = $3 FOR UPDATE',
      [scope.userId, scope.connectionId, d.filename],
    );
    const old = current.rows[0];
    if (old) {
      replaced = true;
      await retireGeneration(tx, old.id, old.generation);
      if (old.id === target.documentId) {
        await tx.query(
          `UPDATE documents SET content_type = $2, size_bytes = $3, sha256 = $4, chunk_count = $5, uploaded_at = $6, generation = $7, part_offsets = $8 WHERE id = $1`,
          [old.id, ...fields],
        );
        break;
      }
      await tx.query('DELETE FROM documents WHERE id = $1', [old.id]);
    }
    // A concurrent upload of the same filename (on a server) may insert first: then take its row over.
    const inserted = await tx.query(
      `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count, uploaded_at, generation, part_offsets)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING id`,
      [target.documentId, scope.userId, scope.connectionId, d.filename, ...fields],
    );
    if (inserted.rows.length > 0) break;
  }
  await publishGeneration(tx, target.generation);
  return { id: target.documentId, replaced };
}

/**
 * Stores a batch in ONE transaction: each document's chunks under a new generation, then its row
 * switched to it (inserted, or the one of the same filename taken over: same id, new content), so
 * a failure leaves nothing half-stored and readers never see a document without its chunks. The
 * replaced documents' chunks are deleted afterwards, in short transactions.
 */
export async function saveDocuments(
  store: Store,
  embedder: Pick<Embedder, 'model' | 'dimension'>,
  input: { userId: string; connectionId: string; documents: readonly EmbeddedDocument[]; now: Date },
): Promise<StoredDocument[]> {
  const scope = { userId: input.userId, connectionId: input.connectionId, now: input.now };
  const stored = await store.transaction(async (tx) => {
    const out: StoredDocument[] = [];
    for (const { document: d, vectors } of input.documents) {
      const target = {
        documentId: await documentIdFor(tx, scope, d.filename),
        generation: randomUUID(),
        userId: input.userId,
        connectionId: input.connectionId,
        model: embedder.model,
        dimension: embedder.dimension,
        part: 0,
      };
      await openGeneration(tx, target.generation, target.documentId, null);
      await insertChunks(tx, target, 0, d.chunks, vectors);
      const row = await switchDocument(tx, scope, { ...target, partOffsets: null }, { ...d, chunkCount: d.chunks.length });
      out.push({
        id: row.id,
        filename: d.filename,
        chunk_count: d.chunks.length,
        size_bytes: d.sizeBytes,
        content_type: d.contentType,
        replaced: row.replaced,
      });
    }
    return out;
  });
  await collectRetiredGenerations(store);
  return stored;
}

interface DocumentRow {
  id: string;
  filename: string;
  chunk_count: number;
  size_bytes: number;
  content_type: string;
  uploaded_at: unknown;
}

/** The connection's documents, newest first (then by filename). */
export async function listDocuments(db: Queryable, userId: string, connectionId: string): Promise<DocumentSummary[]> {
  const res = await db.query<DocumentRow>(
    `SELECT id, filename, chunk_count, size_bytes, content_type, uploaded_at FROM documents
     WHERE user_id = $1 AND connection_id = $2 ORDER BY uploaded_at DESC, filename`,
    [userId, connectionId],
  );
  return res.rows.map((r) => ({
    id: r.id,
    filename: r.filename,
    chunk_count: Number(r.chunk_count),
    size_bytes: Number(r.size_bytes),
    content_type: r.content_type,
    uploaded_at: iso(r.uploaded_at),
  }));
}

/**
 * Deletes a document: its row and its generation retired in one short transaction, then its
 * chunks in bounded ones. Chunks a running batch writes for the same document are not touched
 * (they are another generation). NOT_FOUND when it is not the caller's on this connection.
 */
export async function deleteDocument(store: Store, userId: string, connectionId: string, documentId: string): Promise<void> {
  const found = await store.transaction(async (tx) => {
    const res = await tx.query<{ generation: string }>('DELETE FROM documents WHERE id = $1 AND user_id = $2 AND connection_id = $3 RETURNING generation', [
      documentId,
      userId,
      connectionId,
    ]);
    const row = res.rows[0];
    if (row) await retireGeneration(tx, documentId, row.generation);
    return row !== undefined;
  });
  if (!found) throw notFound('Document');
  await collectRetiredGenerations(store);
}
