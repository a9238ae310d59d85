import type { SchemaMigration } from '../migrate';

/**
 * Connections feature, next step (ids 01xx, after `0104_snapshot_json`): snapshots stored as
 * zlib-deflated JSON text.
 *
 * A 1,000-table snapshot is ~3 MB of JSON. Sent as a `json` parameter, embedded PGlite spent
 * ~40 ms per introspection encoding, UTF-8-checking and parsing the text in WASM and compressing
 * it with pglz (~700 KB on disk); deflated by Node (zlib level 1: ~3 ms, ~70 KB, off the main
 * thread) it is stored in ~1 ms, and reading it back no longer detoasts and transfers 3 MB.
 * The body is still exactly the snapshot's JSON text; the old column keeps the snapshots stored
 * before, and exactly one of the two holds each snapshot. EXTERNAL storage: the bytes are
 * already compressed, so the toaster does not try again.
 */
export const snapshotDeflateMigrations: readonly SchemaMigration[] = [
  {
    id: '0105_snapshot_deflated',
    statements: [
      'ALTER TABLE schema_snapshots ADD COLUMN snapshot_deflated bytea',
      'ALTER TABLE schema_snapshots ALTER COLUMN snapshot_deflated SET STORAGE EXTERNAL',
      'ALTER TABLE schema_snapshots ALTER COLUMN snapshot DROP NOT NULL',
      `ALTER TABLE schema_snapshots ADD CONSTRAINT schema_snapshots_one_body
         CHECK ((snapshot IS NULL) <> (snapshot_deflated IS NULL))`,
    ],
  },
];
