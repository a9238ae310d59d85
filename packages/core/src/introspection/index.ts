export { ensureSnapshot, introspectConnection, type SnapshotSummary, summarizeSnapshot } from './introspect-connection';
export { searchSchemaChunks } from './schema-chunks';
export { type SchemaSnapshot, type TableInfo } from './schema-snapshot';
export { getLatestSnapshot } from './snapshot-store';
