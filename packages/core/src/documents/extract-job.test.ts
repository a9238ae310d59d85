import { describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import { type ChunkBatch, runExtractJob, TEXT_BLOCK_CHUNKS } from './extract-job';
import { checkFile } from './prepare-document';

describe('runExtractJob on a text file', () => {
  it('sends a long file as runs of at most TEXT_BLOCK_CHUNKS chunks, in order, each with its own vectors', async () => {
    const bytes = new TextEncoder().encode(
      Array.from({ length: TEXT_BLOCK_CHUNKS + 500 }, (_, i) => `Paragraph ${i}: ${'each shipment row names its carrier and its warehouse. '.repeat(16)}`).join(
        '\n\n',
      ),
    );
    const batches: ChunkBatch[] = [];
    const outcome = await runExtractJob({ op: 'text', file: checkFile({ filename: 'shipments.txt', bytes }), bytes, embed: true }, (b) => batches.push(b));
    expect(outcome).toMatchObject({ ok: true });
    const total = (outcome as { chunkCount: number }).chunkCount;
    expect(total).toBeGreaterThan(TEXT_BLOCK_CHUNKS);
    expect(batches.map((b) => b.part)).toEqual(batches.map((_, i) => i));
    expect(batches.length).toBe(Math.ceil(total / TEXT_BLOCK_CHUNKS));
    const dimension = new HashingEmbedder().dimension;
    for (const b of batches) {
      expect(b.chunks.length).toBeLessThanOrEqual(TEXT_BLOCK_CHUNKS);
      expect(b.vectors!.length).toBe(b.chunks.length * dimension);
    }
    // The runs join into the file in order: the paragraph each chunk starts in never goes back.
    const starts = batches.flatMap((b) => b.chunks).map((c) => Number(/Paragraph (\d+)/.exec(c.content)?.[1] ?? -1));
    expect(starts[0]).toBe(0);
    expect(starts.every((n, i) => i === 0 || n >= starts[i - 1]!)).toBe(true);
  });
});
