import type { SchemaMigration } from '../migrate';

/**
 * Documents feature, third step (ids 04xx): uploads through slots, ingested asynchronously.
 *
 * - `document_batches`: one row per batch a client asked slots for; `status` moves
 *   awaiting_upload -> queued (confirmed) -> ingesting -> completed | failed. `result` holds the
 *   same batch result the multipart upload answers, `rejections` every refused file.
 * - `document_batch_files`: one slot per file. The slot token is stored as its SHA-256 only;
 *   `uploaded_at` is set once, so a slot cannot be used twice. `staged_chunks` is set when every
 *   chunk of the file is in the staging table, so a resumed ingestion skips the file.
 * - `document_batch_chunks`: chunks staged while extraction continues, keyed by
 *   (batch, file, part, chunk), where a part is a range of PDF pages extracted on its own thread
 *   (0 for other files). A file whose staging did not finish is staged again from scratch when
 *   ingestion resumes. The batch's final transaction moves them into
 *   `document_chunks` and marks the batch completed together: all or nothing, exactly once.
 *   No vector index here: staging is write-once, read-once.
 */
export const documentBatchesMigrations: readonly SchemaMigration[] = [
  {
    id: '0403_document_batches',
    statements: [
      `CREATE TABLE document_batches (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('awaiting_upload', 'queued', 'ingesting', 'completed', 'failed')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        finished_at timestamptz,
        result jsonb,
        error jsonb,
        rejections jsonb
      )`,
      'CREATE INDEX document_batches_scope ON document_batches (user_id, connection_id)',
      `CREATE INDEX document_batches_unfinished ON document_batches (status) WHERE status IN ('queued', 'ingesting')`,
      `CREATE TABLE document_batch_files (
        batch_id uuid NOT NULL REFERENCES document_batches(id) ON DELETE CASCADE,
        position integer NOT NULL,
        filename text NOT NULL,
        size_bytes integer NOT NULL CHECK (size_bytes > 0),
        media_type text NOT NULL,
        token_sha256 text NOT NULL UNIQUE,
        storage_key text NOT NULL,
        uploaded_at timestamptz,
        received_bytes integer,
        staged_chunks integer,
        content_type text,
        sha256 text,
        PRIMARY KEY (batch_id, position),
        UNIQUE (batch_id, filename)
      )`,
      `CREATE TABLE document_batch_chunks (
        batch_id uuid NOT NULL REFERENCES document_batches(id) ON DELETE CASCADE,
        position integer NOT NULL,
        part integer NOT NULL,
        chunk_index integer NOT NULL,
        heading text,
        content text NOT NULL,
        identifiers text[] NOT NULL,
        embedding vector(384) NOT NULL,
        embedding_model text NOT NULL,
        embedding_dimension integer NOT NULL,
        PRIMARY KEY (batch_id, position, part, chunk_index)
      )`,
      'ALTER TABLE document_batch_chunks ALTER COLUMN embedding SET STORAGE PLAIN',
    ],
  },
];
