import type { CoreDeps } from '../deps';
import { requireDocumentConnection } from '../documents/document-connection';
import type { Embedder } from '../embeddings/embedder';
import { getLatestSnapshot } from '../introspection/snapshot-store';
import { findRelevantDocumentChunks } from './document-context';
import { type TableContext, tableContext } from './table-context';

/** One ranked chunk in the context query response. */
export interface ContextChunk {
  document_id: string;
  filename: string;
  chunk_index: number;
  heading: string | null;
  excerpt: string;
  /** Relevance in [0, 1]; see docs/documents.md, "Ranking". */
  score: number;
  mentioned_tables: string[];
}

/** Data of `POST /connections/{id}/context/query`. */
export interface ContextQueryResult {
  connection_id: string;
  /** The snapshot the table metadata comes from, or null when the connection was never introspected. */
  snapshot: { snapshot_id: string; introspected_at: string; server_version: string } | null;
  tables: TableContext[];
  /** Requested names the snapshot does not contain (all of them when there is no snapshot). */
  missing_tables: string[];
  chunks: ContextChunk[];
  /** True when at least one document chunk was returned. */
  context_used: boolean;
}

/**
 * Schema metadata of the requested tables from the latest snapshot (it never introspects: that
 * is a billable call of its own) and the connection's document chunks ranked for the query.
 */
export async function queryContext(
  deps: CoreDeps & { embedder: Embedder },
  userId: string,
  connectionId: string,
  input: { tableNames: readonly string[]; query: string; maxChunks: number },
): Promise<ContextQueryResult> {
  await requireDocumentConnection(deps, userId, connectionId, { active: true });
  const snapshot = await getLatestSnapshot(deps.store, userId, connectionId);
  const schema = snapshot ? tableContext(snapshot, input.tableNames) : { tables: [], missing_tables: [...input.tableNames] };
  const ranked = await findRelevantDocumentChunks(deps.store, deps.embedder, {
    userId,
    connectionId,
    query: input.query,
    tableNames: input.tableNames,
    limit: input.maxChunks,
  });
  const chunks = ranked.map((c) => ({
    document_id: c.document_id,
    filename: c.document_filename,
    chunk_index: c.chunk_index,
    heading: c.heading ?? null,
    excerpt: c.excerpt,
    score: c.relevance,
    mentioned_tables: c.mentioned_tables ?? [],
  }));
  return {
    connection_id: connectionId,
    snapshot: snapshot ? { snapshot_id: snapshot.snapshot_id, introspected_at: snapshot.introspected_at, server_version: snapshot.server_version } : null,
    ...schema,
    chunks,
    context_used: chunks.length > 0,
  };
}
