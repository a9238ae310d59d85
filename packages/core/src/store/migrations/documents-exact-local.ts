import type { SchemaMigration } from '../migrate';

/**
 * Documents feature, fourth step (ids 04xx): no HNSW index on the embedded store.
 *
 * In PGlite (WASM, one thread) the HNSW index was most of what storing a chunk cost: about
 * 1.7 ms per chunk maintained per insert against 0.13 ms for the row itself, so a dense 10 MB
 * PDF (29,000 chunks) spent over a minute in the index alone. An index on binary-quantized
 * vectors (Hamming distance) cost the same per insert, so the cost is the graph walk, not the
 * distance arithmetic; building after a load is 3x cheaper per row but covers the whole table.
 * The local store therefore searches exactly: the context query reads a connection's chunks
 * through `document_chunks_scope` and sorts them by distance, with perfect recall: about 1 ms
 * per 1,000 chunks of the connection on a quiet machine, linear in them.
 * RDS keeps the HNSW index: pgvector maintains it in native code there.
 * Measured in docs/benchmarks.md, issue #21.
 */
export const documentsExactLocalMigrations: readonly SchemaMigration[] = [
  {
    id: '0404_document_chunks_exact_search_on_pglite',
    stores: ['pglite'],
    statements: ['DROP INDEX IF EXISTS document_chunks_embedding'],
  },
];
