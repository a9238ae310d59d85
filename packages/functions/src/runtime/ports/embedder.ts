import type { Embedder } from '@dbops/core/embeddings';
import { EMBEDDING_DIMENSION } from '@dbops/core/embeddings';
import { HashingEmbedder } from '@dbops/core/embeddings';
import { memoPer } from '@dbops/core/util';
import type { Container } from '../container';

/**
 * The embedder of this process: the offline hashing embedder by default; an OpenAI-compatible
 * embeddings API when `DBOPS_EMBEDDINGS=openai` (`DBOPS_OPENAI_API_KEY`, `DBOPS_OPENAI_BASE_URL`,
 * `DBOPS_EMBEDDINGS_MODEL`).
 */
export const getEmbedder = memoPer<Container, Embedder>((c) => {
  const settings = c.settings;
  if (settings.embeddings.provider === 'openai') {
    // The model name is known without loading the SDK, so the lazy wrapper can report it. A
    // missing API key fails the first embed() (openAiEmbedderFromSettings), not every request that
    // builds domain deps.
    return lazyEmbedder(settings.embeddings.model || 'text-embedding-3-small', () =>
      import('@dbops/adapters/openai/openai-embedder').then((m) => m.openAiEmbedderFromSettings(settings)),
    );
  }
  return new HashingEmbedder();
});

function lazyEmbedder(model: string, load: () => Promise<Embedder>): Embedder {
  let embedder: Promise<Embedder> | undefined;
  return {
    model,
    dimension: EMBEDDING_DIMENSION,
    embed: async (texts) => (await (embedder ??= load())).embed(texts),
  };
}
