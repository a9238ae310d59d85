import type { Embedder } from '../embeddings/embedder';
import { AppError } from '../errors/app-error';
import type { DocumentChunk } from './chunk';
import { rejectDocument } from './document-rejection';
import { embeddingText } from './embedding-text';
import { embedsOnThread, type ExtractJob, type ExtractOutcome } from './extract-job';
import { EXTRACT_THREADS, runOnExtractThread } from './extract-threads';
import { type CheckedFile, checkFile, type IncomingFile } from './prepare-document';

/** A run of a document's chunks with their vectors; PDF page ranges are parts 0, 1, 2, ... */
export interface ExtractedPart {
  part: number;
  chunks: DocumentChunk[];
  vectors: number[][];
}

export interface ExtractedFile extends CheckedFile {
  chunkCount: number;
}

const EMBED_BATCH = 64;

/** Fewest pages per PDF part: opening the file again per part has a cost. */
const MIN_PAGES_PER_PART = 25;

function outcomeOrThrow(outcome: ExtractOutcome): Extract<ExtractOutcome, { ok: true }> {
  if (outcome.ok) return outcome;
  if (outcome.error) throw new AppError(outcome.error.code, outcome.error.message, outcome.error.details ? { details: outcome.error.details } : {});
  throw new Error(outcome.message);
}

async function vectorsOf(embedder: Embedder, chunks: readonly DocumentChunk[], flat: Float32Array | null): Promise<number[][]> {
  if (flat) {
    const d = embedder.dimension;
    return chunks.map((_, i) => Array.from(flat.subarray(i * d, (i + 1) * d)));
  }
  const vectors: number[][] = [];
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) vectors.push(...(await embedder.embed(chunks.slice(i, i + EMBED_BATCH).map(embeddingText))));
  return vectors;
}

/**
 * Checks, extracts, chunks and embeds one file off the request loop (extraction threads), handing
 * each part to `onPart` as soon as it is ready: a PDF is cut into page ranges extracted in
 * parallel, so its first chunks can be stored while later pages are still being read. Throws the
 * rejection that names the file.
 */
export async function extractDocument(file: IncomingFile, embedder: Embedder, onPart: (part: ExtractedPart) => Promise<void>): Promise<ExtractedFile> {
  const checked = checkFile(file);
  const embed = embedsOnThread(embedder.model);
  const run = async (job: ExtractJob, part: number): Promise<number> => {
    const out = outcomeOrThrow(await runOnExtractThread(job));
    if (out.chunks.length > 0) await onPart({ part, chunks: out.chunks, vectors: await vectorsOf(embedder, out.chunks, out.vectors) });
    return out.chunks.length;
  };

  let chunkCount: number;
  if (checked.kind === 'pdf') {
    const pages = outcomeOrThrow(await runOnExtractThread({ op: 'pdf-count', file: checked, bytes: file.bytes })).pages;
    const perPart = Math.max(MIN_PAGES_PER_PART, Math.ceil(pages / (EXTRACT_THREADS * 4)));
    const parts: Array<Promise<number>> = [];
    for (let from = 1, part = 0; from <= pages; from += perPart, part++) {
      parts.push(run({ op: 'pdf-pages', file: checked, bytes: file.bytes, from, to: from + perPart - 1, embed }, part));
    }
    const settled = await Promise.allSettled(parts);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    chunkCount = settled.reduce((n, s) => n + (s.status === 'fulfilled' ? s.value : 0), 0);
  } else {
    chunkCount = await run({ op: 'text', file: checked, bytes: file.bytes, embed }, 0);
  }
  if (chunkCount === 0) {
    throw checked.kind === 'pdf'
      ? rejectDocument(file.filename, 'no_text', `${file.filename} has no extractable text (a scanned PDF needs OCR first)`)
      : rejectDocument(file.filename, 'no_text', `${file.filename} has no text to index`);
  }
  return { ...checked, chunkCount };
}
