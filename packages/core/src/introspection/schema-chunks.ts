import { EMBEDDING_DIMENSION, type Embedder } from '../embeddings/embedder';
import { vectorParam } from '../store/vector-param';
import { createHash } from 'node:crypto';
import type { Queryable, Store } from '../store/store';
import type { SchemaChunkText } from './schema-chunk-text';
import { isConnectionId } from '../connections/connection-id';

/** Rows per INSERT when storing chunks; keeps statements well under parameter limits. */
const INSERT_BATCH = 100;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Makes the connection's stored chunks those of a new snapshot. Chunks whose text and
 * embedding model are unchanged keep their row and vector (no embedding call, no index
 * churn); changed and new ones are embedded and upserted; chunks of dropped tables go.
 * Embedding happens before the writes, so no transaction waits on an embeddings API.
 */
export async function syncSchemaChunks(
  store: Store,
  embedder: Embedder,
  input: { userId: string; connectionId: string; snapshotId: string; chunks: readonly SchemaChunkText[] },
): Promise<{ embedded: number; kept: number; removed: number }> {
  if (embedder.dimension !== EMBEDDING_DIMENSION) {
    throw new Error(`embedder ${embedder.model} gives ${embedder.dimension} dimensions; the store holds ${EMBEDDING_DIMENSION}`);
  }
  const existing = await store.query<{ table_schema: string; table_name: string; content_sha256: string; embedding_model: string }>(
    'SELECT table_schema, table_name, content_sha256, embedding_model FROM schema_chunks WHERE connection_id = $1 AND user_id = $2',
    [input.connectionId, input.userId],
  );
  const key = (s: string, n: string): string => JSON.stringify([s, n]);
  const stored = new Map(existing.rows.map((r) => [key(r.table_schema, r.table_name), r]));
  const wanted = new Set(input.chunks.map((c) => key(c.table_schema, c.table_name)));
  const changed = input.chunks
    .map((c) => ({ ...c, sha: sha256(c.content) }))
    .filter((c) => {
      const old = stored.get(key(c.table_schema, c.table_name));
      return !old || old.content_sha256 !== c.sha || old.embedding_model !== embedder.model;
    });
  const gone = existing.rows.filter((r) => !wanted.has(key(r.table_schema, r.table_name)));
  const vectors = changed.length === 0 ? [] : await embedder.embed(changed.map((c) => c.content));

  await store.transaction(async (tx) => {
    if (gone.length > 0) {
      await tx.query(
        `DELETE FROM schema_chunks WHERE connection_id = $1 AND user_id = $2
         AND (table_schema, table_name) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
        [input.connectionId, input.userId, gone.map((g) => g.table_schema), gone.map((g) => g.table_name)],
      );
    }
    for (let start = 0; start < changed.length; start += INSERT_BATCH) {
      const batch = changed.slice(start, start + INSERT_BATCH);
      // $1-$5 are shared; each row adds five parameters, the embedding in binary (vectorParam).
      const params: unknown[] = [input.snapshotId, input.connectionId, input.userId, embedder.model, embedder.dimension];
      const rows = batch.map((c, i) => {
        params.push(c.table_schema, c.table_name, c.content, c.sha, vectorParam(vectors[start + i] ?? []));
        const p = 6 + i * 5;
        return `($1::uuid, $2::uuid, $3::uuid, $${p}, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::vector, $4, $5::int)`;
      });
      await tx.query(
        `INSERT INTO schema_chunks (snapshot_id, connection_id, user_id, table_schema, table_name, content, content_sha256,
           embedding, embedding_model, embedding_dimension)
         VALUES ${rows.join(', ')}
         ON CONFLICT (connection_id, table_schema, table_name) DO UPDATE SET
           snapshot_id = EXCLUDED.snapshot_id, content = EXCLUDED.content, content_sha256 = EXCLUDED.content_sha256,
           embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,
           embedding_dimension = EXCLUDED.embedding_dimension, created_at = now()`,
        params,
      );
    }
  });
  return { embedded: changed.length, kept: input.chunks.length - changed.length, removed: gone.length };
}

/** A schema chunk ranked for a question. */
export interface RankedSchemaChunk {
  table_schema: string;
  table_name: string;
  content: string;
  /** The snapshot that last changed this chunk's text. */
  snapshot_id: string;
  /** Cosine similarity in [-1, 1], higher is closer. */
  similarity: number;
}

/**
 * The chunks of the user's connection closest to `embedding`, best first. Pass `model` (the
 * embedder that made `embedding`) so vectors of another model are never compared. The search
 * is exact within the connection (a few thousand rows at most), which an approximate HNSW
 * scan with a tenant filter would not guarantee.
 */
export async function searchSchemaChunks(
  db: Queryable,
  input: { userId: string; connectionId: string; embedding: readonly number[]; limit: number; model?: string },
): Promise<RankedSchemaChunk[]> {
  if (!isConnectionId(input.connectionId) || input.limit <= 0) return [];
  const res = await db.query<{ table_schema: string; table_name: string; content: string; snapshot_id: string; distance: number }>(
    `WITH mine AS MATERIALIZED (
       SELECT table_schema, table_name, content, snapshot_id, embedding FROM schema_chunks
       WHERE connection_id = $1 AND user_id = $2 AND ($5::text IS NULL OR embedding_model = $5)
     )
     SELECT table_schema, table_name, content, snapshot_id, (embedding <=> $3::vector)::float8 AS distance
     FROM mine ORDER BY embedding <=> $3::vector, table_schema, table_name LIMIT $4`,
    [input.connectionId, input.userId, vectorParam(input.embedding), input.limit, input.model ?? null],
  );
  return res.rows.map((r) => ({
    table_schema: r.table_schema,
    table_name: r.table_name,
    content: r.content,
    snapshot_id: r.snapshot_id,
    similarity: 1 - Number(r.distance),
  }));
}
