import type { Embedder } from '@dbops/core/embeddings/embedder';
import { HashingEmbedder } from '@dbops/core/embeddings/hashing-embedder';
import { memoPer } from '@dbops/core/util/memo-per';
import type { Container } from '../container';

/**
 * The embedder of this process: the offline hashing embedder by default; an OpenAI-compatible
 * embeddings API when `DBOPS_EMBEDDINGS=openai` (wired by the connections issue).
 */
export const getEmbedder = memoPer<Container, Embedder>(() => new HashingEmbedder());
