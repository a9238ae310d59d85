import type { ServiceSettings } from '@dbops/core/config';
import { EMBEDDING_DIMENSION, type Embedder } from '@dbops/core/embeddings';
import OpenAI from 'openai';

/** Settings of {@link OpenAiEmbedder}. */
export interface OpenAiEmbedderOptions {
  /** `DBOPS_OPENAI_API_KEY`. */
  apiKey: string;
  /** `DBOPS_OPENAI_BASE_URL`; unset uses the OpenAI API. Any OpenAI-compatible endpoint works. */
  baseURL?: string;
  /** `DBOPS_EMBEDDINGS_MODEL`, default `text-embedding-3-small` (it supports shortened `dimensions`). */
  model?: string;
  /** Request timeout, default 30 s. */
  timeoutMs?: number;
  /** Texts per request, default 256 (the API takes up to 2048 inputs). */
  batchSize?: number;
  /** A client to use instead of building one (tests). */
  client?: Pick<OpenAI, 'embeddings'>;
}

/**
 * OpenAI embeddings behind the Embedder port, asking for {@link EMBEDDING_DIMENSION}
 * dimensions so vectors fit the store's `vector(384)` columns.
 */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimension = EMBEDDING_DIMENSION;
  readonly #client: Pick<OpenAI, 'embeddings'>;
  readonly #batchSize: number;

  constructor(options: OpenAiEmbedderOptions) {
    this.model = options.model ?? 'text-embedding-3-small';
    this.#batchSize = options.batchSize ?? 256;
    this.#client = options.client ?? new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, timeout: options.timeoutMs ?? 30_000, maxRetries: 2 });
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.#batchSize) {
      const batch = texts.slice(i, i + this.#batchSize).map((t) => (t.length > 0 ? t : ' '));
      const res = await this.#client.embeddings.create({ model: this.model, input: batch, dimensions: this.dimension, encoding_format: 'float' });
      const sorted = [...res.data].sort((a, b) => a.index - b.index);
      for (const d of sorted) {
        if (d.embedding.length !== this.dimension)
          throw new Error(`embedding model ${this.model} returned ${d.embedding.length} dimensions, expected ${this.dimension}`);
        out.push(d.embedding);
      }
    }
    if (out.length !== texts.length) throw new Error(`embedding API returned ${out.length} vectors for ${texts.length} texts`);
    return out;
  }
}

/** The embedder from the service's settings; throws when `DBOPS_OPENAI_API_KEY` is missing. */
export function openAiEmbedderFromSettings(settings: Pick<ServiceSettings, 'openai' | 'embeddings'>): OpenAiEmbedder {
  const { apiKey, baseUrl } = settings.openai;
  if (!apiKey) throw new Error('DBOPS_EMBEDDINGS=openai needs DBOPS_OPENAI_API_KEY');
  return new OpenAiEmbedder({ apiKey, baseURL: baseUrl, model: settings.embeddings.model });
}
