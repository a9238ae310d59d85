import type { SchemaMigration } from '../migrate';
import { EMBEDDING_DIMENSION } from '../../embeddings/embedder';

/**
 * Schema of the connections feature (connections, schema snapshots, schema chunks).
 * Append, never edit an applied entry.
 */
export const connectionsMigrations: readonly SchemaMigration[] = [
  {
    id: '0101_connections',
    statements: [
      `CREATE EXTENSION IF NOT EXISTS vector`,
      // The connection string exists here only as AES-256-GCM ciphertext; host, port and
      // database are kept in clear because the API returns them.
      `CREATE TABLE connections (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        db_type text NOT NULL CHECK (db_type IN ('provider_a', 'postgresql_cloud_a', 'postgres_cloud_b', 'postgresql_local', 'postgresql')),
        host text NOT NULL,
        port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
        database_name text NOT NULL,
        sslmode text NOT NULL CHECK (sslmode IN ('require', 'prefer', 'disable')),
        prefer_plain boolean NOT NULL DEFAULT false,
        secret_ciphertext bytea NOT NULL,
        encrypted_data_key bytea NOT NULL,
        key_provider text NOT NULL,
        key_id text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_introspected_at timestamptz
      )`,
      `CREATE INDEX connections_user ON connections (user_id, created_at, id)`,
    ],
  },
  {
    id: '0102_schema_snapshots',
    statements: [
      `CREATE TABLE schema_snapshots (
        id uuid PRIMARY KEY,
        connection_id uuid NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        introspected_at timestamptz NOT NULL,
        table_count integer NOT NULL,
        duration_ms integer NOT NULL,
        snapshot jsonb NOT NULL
      )`,
      `CREATE INDEX schema_snapshots_latest ON schema_snapshots (connection_id, introspected_at DESC, id DESC)`,
    ],
  },
  {
    id: '0103_schema_chunks',
    statements: [
      // One row per relation of a connection's latest snapshot. content_sha256 lets a new
      // snapshot keep the rows (and embeddings) of tables whose text did not change.
      `CREATE TABLE schema_chunks (
        id bigserial PRIMARY KEY,
        snapshot_id uuid NOT NULL REFERENCES schema_snapshots(id) ON DELETE CASCADE,
        connection_id uuid NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        table_schema text NOT NULL,
        table_name text NOT NULL,
        content text NOT NULL,
        content_sha256 text NOT NULL,
        embedding vector(${EMBEDDING_DIMENSION}) NOT NULL,
        embedding_model text NOT NULL,
        embedding_dimension integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (connection_id, table_schema, table_name)
      )`,
      // No HNSW index: retrieval is always within one connection (a few thousand chunks at
      // most), which the unique key above narrows to before an exact cosine scan. A global
      // approximate index would not be used by that query and made the first introspection
      // of 1,000 tables cost ~10-30 s of graph building in embedded PGlite.
    ],
  },
  {
    id: '0104_snapshot_json',
    statements: [
      // The snapshot is an opaque document read whole and never queried inside by SQL; json
      // stores its text after a validating parse, where jsonb also rebuilds it into a binary
      // tree: for a 1,000-table snapshot (3 MB) that halved the insert and sped up the read.
      'ALTER TABLE schema_snapshots ALTER COLUMN snapshot TYPE json USING snapshot::json',
    ],
  },
];
