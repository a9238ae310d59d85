import type { SchemaMigration } from '../migrate';

/**
 * Documents feature, fifth step (ids 04xx): chunks written once, under a generation.
 *
 * Until now a slot batch staged its chunks in `document_batch_chunks` and its final transaction
 * copied every one into `document_chunks`: a second write of each chunk, and on PGlite (one
 * transaction at a time) minutes during which the local service answered nothing else for a
 * 50 x 10 MB batch. Now ingestion writes chunks straight into `document_chunks`, in short
 * transactions, under a fresh **generation** per file, and the final transaction only points the
 * documents rows at their new generations.
 *
 * - `documents.generation`: the generation readers see. A chunk is visible only when its
 *   document's row names its generation; `document_chunks.generation` is NULL for chunks written
 *   before this step, which belong to their document's first generation, numbered by the
 *   document's id (hence the backfill `generation = id`, cheap: one row per document, while
 *   rewriting every chunk would re-index every vector on RDS).
 * - `document_chunks.part` and `documents.part_offsets`: a PDF's page shares are extracted in
 *   parallel, so a chunk of share `part` is numbered within its share and its place in the
 *   document is `chunk_index + part_offsets[part + 1]` (NULL offsets: a single part).
 * - The foreign key to `documents` goes: a batch's chunks exist before their document row does
 *   (a new file) and must survive a delete of the row they will replace. Deleting or replacing a
 *   document retires its generation instead; `document_generations` lists the generations that
 *   are not visible (`pending`: being written by a batch; `retired`: to delete), and their chunks
 *   are deleted afterwards in short bounded transactions.
 * - Uniqueness moves from (document, chunk) to (document, generation, part, chunk): two
 *   generations of one document coexist until the switch. That index also finds a generation's
 *   chunks to count and to delete.
 * - `document_batch_files` records each file's document id, generation and chunks per part.
 *   Staging chunks of unfinished batches is dropped with its table: those files are staged again.
 */
export const documentGenerationsMigrations: readonly SchemaMigration[] = [
  {
    id: '0405_document_chunk_generations',
    statements: [
      'ALTER TABLE documents ADD COLUMN generation uuid',
      'UPDATE documents SET generation = id',
      'ALTER TABLE documents ALTER COLUMN generation SET NOT NULL',
      'ALTER TABLE documents ADD COLUMN part_offsets integer[]',
      'ALTER TABLE document_chunks ADD COLUMN generation uuid',
      'ALTER TABLE document_chunks ADD COLUMN part integer NOT NULL DEFAULT 0',
      'ALTER TABLE document_chunks DROP CONSTRAINT IF EXISTS document_chunks_document_id_fkey',
      'ALTER TABLE document_chunks DROP CONSTRAINT IF EXISTS document_chunks_document_id_chunk_index_key',
      'CREATE UNIQUE INDEX document_chunks_generation_key ON document_chunks (document_id, generation, part, chunk_index)',
      `CREATE TABLE document_generations (
        generation uuid PRIMARY KEY,
        document_id uuid NOT NULL,
        batch_id uuid,
        state text NOT NULL CHECK (state IN ('pending', 'retired')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX document_generations_retired ON document_generations (created_at) WHERE state = 'retired'`,
      'CREATE INDEX document_generations_batch ON document_generations (batch_id) WHERE batch_id IS NOT NULL',
      'ALTER TABLE document_batch_files ADD COLUMN document_id uuid',
      'ALTER TABLE document_batch_files ADD COLUMN generation uuid',
      'ALTER TABLE document_batch_files ADD COLUMN part_counts integer[]',
      `UPDATE document_batch_files SET staged_chunks = NULL
       WHERE batch_id IN (SELECT id FROM document_batches WHERE status IN ('queued', 'ingesting'))`,
      'DROP TABLE document_batch_chunks',
    ],
  },
];
