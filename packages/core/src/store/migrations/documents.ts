import type { SchemaMigration } from '../migrate';

/**
 * Schema of the documents feature (ids 04xx): uploaded business documents per connection and
 * their embedded chunks. Append, never edit an applied entry.
 *
 * Vectors are `vector(384)` (EMBEDDING_DIMENSION); each chunk records the embedder's model and
 * dimension so that ranking only compares vectors of the same embedder. `identifiers` holds the
 * identifier-like words of the chunk for the exact-mention boost (GIN, `&&`).
 */
export const documentsMigrations: readonly SchemaMigration[] = [
  {
    id: '0401_documents',
    statements: [
      'CREATE EXTENSION IF NOT EXISTS vector',
      `CREATE TABLE documents (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL,
        filename text NOT NULL CHECK (char_length(filename) BETWEEN 1 AND 255),
        content_type text NOT NULL,
        size_bytes integer NOT NULL CHECK (size_bytes > 0),
        sha256 text NOT NULL,
        chunk_count integer NOT NULL CHECK (chunk_count > 0),
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, connection_id, filename)
      )`,
      `CREATE TABLE document_chunks (
        id bigserial PRIMARY KEY,
        document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        chunk_index integer NOT NULL,
        heading text,
        content text NOT NULL,
        identifiers text[] NOT NULL,
        embedding vector(384) NOT NULL,
        embedding_model text NOT NULL,
        embedding_dimension integer NOT NULL,
        UNIQUE (document_id, chunk_index)
      )`,
      'CREATE INDEX document_chunks_scope ON document_chunks (connection_id, user_id)',
      'CREATE INDEX document_chunks_identifiers ON document_chunks USING gin (identifiers)',
      'CREATE INDEX document_chunks_embedding ON document_chunks USING hnsw (embedding vector_cosine_ops)',
    ],
  },
];
