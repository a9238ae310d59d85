import type { SchemaMigration } from '../migrate';

/**
 * Documents feature, second step (ids 04xx, after `0401_documents`): cheaper chunk inserts.
 *
 * - Embeddings stay inline in the heap row. pgvector declares `vector` with EXTERNAL storage,
 *   and a chunk row (about 1,000 characters of content, its identifiers and a 1,540-byte
 *   384-dimension vector) is over PostgreSQL's ~2 KB TOAST threshold, so every vector went to
 *   the TOAST table: an extra tuple and TOAST-index entry per insert, and a TOAST fetch for every
 *   distance computed from the heap (exact scans of a connection, the re-scoring of candidates,
 *   index builds). With PLAIN storage the content is compressed or moved out of line instead.
 *   Only rows written afterwards change.
 * - The HNSW index is rebuilt with m = 8 instead of pgvector's default 16. Each insert links the
 *   new vector to up to 2·m neighbours per layer and re-prunes every neighbour's list, about m²
 *   distance computations each, and in PGlite that maintenance was most of an upload's time
 *   (~7-10 ms per chunk at m = 16 once the index holds a few thousand vectors, ~3x less at
 *   m = 8; ef_construction changed little, so it stays 64). The sparser graph needs a wider
 *   search for the same recall: queries run with hnsw.ef_search of at least 400, which at m = 8
 *   finds more of the exact nearest chunks than m = 16 did at the former ef_search of 40
 *   (docs/benchmarks.md, "Documents").
 * - The build keeps its graph in memory while it fits maintenance_work_mem, many times faster
 *   than building on disk, hence the setting for this transaction.
 */
export const documentsVectorIndexMigrations: readonly SchemaMigration[] = [
  {
    id: '0402_document_chunks_inline_vectors_hnsw_m8',
    statements: [
      'ALTER TABLE document_chunks ALTER COLUMN embedding SET STORAGE PLAIN',
      'DROP INDEX document_chunks_embedding',
      `SET LOCAL maintenance_work_mem = '256MB'`,
      'CREATE INDEX document_chunks_embedding ON document_chunks USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 64)',
    ],
  },
];
