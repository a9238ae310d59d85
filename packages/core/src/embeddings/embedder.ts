/**
 * Port: turns texts into vectors for similarity search (schema chunks, document chunks,
 * questions). Every stored vector records `model` and `dimension`, so vectors of different
 * embedders are never compared.
 */
export interface Embedder {
  /** e.g. "dbops-hashing-v1" or "text-embedding-3-small". */
  readonly model: string;
  readonly dimension: number;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** Dimension of the `vector` columns in the state store. */
export const EMBEDDING_DIMENSION = 384;
