import { randomUUID } from 'node:crypto';
import type { Embedder } from '../embeddings/embedder';
import { notFound } from '../errors/app-error';
import type { Queryable, Store } from '../store/store';
import { vectorParam } from '../store/vector-param';
import { iso } from '../util/timestamps';
import type { DocumentChunk } from './chunk';
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
  vectors: number[][];
}

const EMBED_BATCH = 64;
const INSERT_BATCH = 200;

/** Embeds every chunk of `document` through the embedder port, in batches. */
export async function embedDocument(embedder: Embedder, document: PreparedDocument): Promise<EmbeddedDocument> {
  const vectors: number[][] = [];
  for (let i = 0; i < document.chunks.length; i += EMBED_BATCH) {
    vectors.push(...(await embedder.embed(document.chunks.slice(i, i + EMBED_BATCH).map(embeddingText))));
  }
  return { document, vectors };
}

async function insertChunks(
  tx: Queryable,
  scope: { documentId: string; userId: string; connectionId: string; model: string; dimension: number },
  chunks: readonly DocumentChunk[],
  vectors: readonly number[][],
): Promise<void> {
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const params: unknown[] = [scope.documentId, scope.userId, scope.connectionId, scope.model, scope.dimension];
    const rows: string[] = [];
    chunks.slice(start, start + INSERT_BATCH).forEach((c, i) => {
      const p = params.length;
      params.push(c.index, c.heading, c.content, identifierTokens(embeddingText(c)), vectorParam(vectors[start + i]!));
      rows.push(`($1, $2, $3, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::text[], $${p + 5}::vector, $4, $5)`);
    });
    await tx.query(
      `INSERT INTO document_chunks (document_id, user_id, connection_id, chunk_index, heading, content, identifiers, embedding, embedding_model, embedding_dimension)
       VALUES ${rows.join(', ')}`,
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

/**
 * Inserts a document row, or takes over the one of the same filename (same id, new content) and
 * deletes its old chunks: the caller's transaction then inserts the new ones.
 */
export async function upsertDocumentRow(
  tx: Queryable,
  scope: { userId: string; connectionId: string; now: Date },
  d: DocumentRowInput,
): Promise<{ id: string; replaced: boolean }> {
  const res = await tx.query<{ id: string; replaced: boolean }>(
    `INSERT INTO documents (id, user_id, connection_id, filename, content_type, size_bytes, sha256, chunk_count, uploaded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (user_id, connection_id, filename) DO UPDATE SET
       content_type = EXCLUDED.content_type, size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256,
       chunk_count = EXCLUDED.chunk_count, uploaded_at = EXCLUDED.uploaded_at
     RETURNING id, (xmax <> 0) AS replaced`,
    [randomUUID(), scope.userId, scope.connectionId, d.filename, d.contentType, d.sizeBytes, d.sha256, d.chunkCount, scope.now],
  );
  const row = res.rows[0]!;
  if (row.replaced) await tx.query('DELETE FROM document_chunks WHERE document_id = $1', [row.id]);
  return row;
}

/**
 * Stores a batch in ONE transaction: each document is inserted, or replaces the one of the same
 * filename (same id, new content, old chunks deleted), so a failure leaves nothing half-stored
 * and readers never see a document without its chunks.
 */
export async function saveDocuments(
  store: Store,
  embedder: Pick<Embedder, 'model' | 'dimension'>,
  input: { userId: string; connectionId: string; documents: readonly EmbeddedDocument[]; now: Date },
): Promise<StoredDocument[]> {
  return store.transaction(async (tx) => {
    const stored: StoredDocument[] = [];
    for (const { document: d, vectors } of input.documents) {
      const row = await upsertDocumentRow(
        tx,
        { userId: input.userId, connectionId: input.connectionId, now: input.now },
        { ...d, chunkCount: d.chunks.length },
      );
      await insertChunks(
        tx,
        { documentId: row.id, userId: input.userId, connectionId: input.connectionId, model: embedder.model, dimension: embedder.dimension },
        d.chunks,
        vectors,
      );
      stored.push({
        id: row.id,
        filename: d.filename,
        chunk_count: d.chunks.length,
        size_bytes: d.sizeBytes,
        content_type: d.contentType,
        replaced: row.replaced,
      });
    }
    return stored;
  });
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

/** Deletes a document and its chunks; NOT_FOUND when it is not the caller's on this connection. */
export async function deleteDocument(db: Queryable, userId: string, connectionId: string, documentId: string): Promise<void> {
  const res = await db.query('DELETE FROM documents WHERE id = $1 AND user_id = $2 AND connection_id = $3 RETURNING id', [documentId, userId, connectionId]);
  if (res.rows.length === 0) throw notFound('Document');
}
