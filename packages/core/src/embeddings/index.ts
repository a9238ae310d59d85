export { type Embedder, EMBEDDING_DIMENSION } from './embedder';
export { HashingEmbedder } from './hashing-embedder';
