import { describe, expect, it } from 'vitest';
import { OpenAiEmbedder } from './openai-embedder';

type CreateArgs = { model: string; input: string[]; dimensions: number; encoding_format: string };

const fakeClient = (calls: CreateArgs[], dims = 384) => ({
  embeddings: {
    create: async (args: CreateArgs) => {
      calls.push(args);
      // Answer out of order, as the API is allowed to: the embedder must sort by index.
      const data = args.input.map((t, index) => ({ index, embedding: Array.from({ length: dims }, () => t.length), object: 'embedding' as const }));
      return { data: data.reverse(), model: args.model, object: 'list' as const, usage: { prompt_tokens: 0, total_tokens: 0 } };
    },
  },
});

describe('OpenAiEmbedder', () => {
  it('asks for 384 dimensions with the configured model, in batches, and keeps input order', async () => {
    const calls: CreateArgs[] = [];
    const e = new OpenAiEmbedder({ apiKey: 'k', model: 'text-embedding-3-small', batchSize: 2, client: fakeClient(calls) as never });
    const out = await e.embed(['a', 'bb', 'ccc']);
    expect(calls.map((c) => c.input)).toEqual([['a', 'bb'], ['ccc']]);
    expect(calls[0]).toMatchObject({ model: 'text-embedding-3-small', dimensions: 384, encoding_format: 'float' });
    expect(out.map((v) => v[0])).toEqual([1, 2, 3]);
    expect(e.model).toBe('text-embedding-3-small');
    expect(e.dimension).toBe(384);
  });

  it('refuses vectors of the wrong size', async () => {
    const e = new OpenAiEmbedder({ apiKey: 'k', client: fakeClient([], 1536) as never });
    await expect(e.embed(['x'])).rejects.toThrow(/1536 dimensions/);
  });
});
