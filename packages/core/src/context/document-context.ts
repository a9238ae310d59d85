import type { Embedder } from '../embeddings/embedder';
import type { Queryable } from '../store/store';

/** A stored document chunk ranked for a question or a set of tables. */
export interface RankedDocumentChunk {
  document_id: string;
  document_filename: string;
  chunk_index: number;
  excerpt: string;
  /** Similarity in [0, 1], higher is more relevant. */
  relevance: number;
}

/**
 * Document chunks of a connection most relevant to `query` and `tableNames`, best first.
 * Owned by the documents issue (#8); until documents exist there are none to rank.
 */
export async function findRelevantDocumentChunks(
  _db: Queryable,
  _embedder: Embedder,
  _input: { userId: string; connectionId: string; query: string; tableNames: readonly string[]; limit: number },
): Promise<RankedDocumentChunk[]> {
  return [];
}
