import { isAppError, type ErrorBody } from '../errors/app-error';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import type { DocumentChunk } from './chunk';
import { chunkPlainText } from './chunk-text';
import { embeddingText } from './embedding-text';
import { extractPdfShare } from './extract-pdf';
import { type DecodedByteLimits, checkPdfDecodedSize } from './pdf-stream-scan';
import { chunkByKind, type CheckedFile, decodeText, requireText } from './prepare-document';

/**
 * One unit of extraction work for an extraction thread: a whole text, Markdown or SQL file, or
 * one share of a PDF's pages. Everything in it is cloneable, so the same job runs on a thread or
 * in-process.
 */
export type ExtractJob =
  | { op: 'text'; file: CheckedFile; bytes: Uint8Array; embed: boolean }
  // Before any page is read: the decoded size of the PDF's compressed streams, within limits.
  | { op: 'pdf-scan'; file: CheckedFile; bytes: Uint8Array; limits: DecodedByteLimits }
  | { op: 'pdf-share'; file: CheckedFile; bytes: Uint8Array; share: number; shares: number; embed: boolean };

/** A run of chunks (indexed from 0 within it) and, when asked for, their vectors laid end to end. */
export interface ChunkBatch {
  /** Orders the batches of one document: share-major, then block. */
  part: number;
  chunks: DocumentChunk[];
  vectors: Float32Array | null;
}

/** How a job ended; its chunks went out as {@link ChunkBatch}es along the way. */
export type ExtractOutcome = { ok: true; chunkCount: number; pages: number } | { ok: false; error: ErrorBody } | { ok: false; error: null; message: string };

/** Pages per block of a PDF share: a block's chunks are sent (and stored) while the next is read. */
export const PDF_BLOCK_PAGES = 100;

/**
 * Chunks per batch of a text, Markdown or SQL file. A 10 MB file has about 20,000 chunks: sent
 * as one message, its copy into the request loop's heap and the vectors' handling held that
 * loop for up to seconds; in runs of this size each step is a few milliseconds.
 */
export const TEXT_BLOCK_CHUNKS = 1_000;

/** Part numbers of share `s`: s x this + block. */
const PARTS_PER_SHARE = 1_000_000;

/** The share (job) a part number belongs to. */
export const shareOfPart = (part: number): number => Math.floor(part / PARTS_PER_SHARE);

let hashing: HashingEmbedder | undefined;

/** Vectors of the offline hashing embedder, computed where the chunks are (no I/O involved). */
async function embedHashing(chunks: readonly DocumentChunk[]): Promise<Float32Array> {
  hashing ??= new HashingEmbedder();
  const out = new Float32Array(chunks.length * hashing.dimension);
  const vectors = await hashing.embed(chunks.map(embeddingText));
  vectors.forEach((v, i) => out.set(v, i * hashing!.dimension));
  return out;
}

/**
 * Runs one job, handing each batch of chunks to `emit` as soon as it is ready; a rejection of
 * the file comes back as its error body, anything else as a message.
 */
export async function runExtractJob(job: ExtractJob, emit: (batch: ChunkBatch) => void): Promise<ExtractOutcome> {
  let chunkCount = 0;
  const send = async (part: number, chunks: DocumentChunk[]): Promise<void> => {
    if (chunks.length === 0) return;
    chunkCount += chunks.length;
    emit({ part, chunks, vectors: job.op !== 'pdf-scan' && job.embed ? await embedHashing(chunks) : null });
  };
  try {
    if (job.op === 'text') {
      const text = decodeText(job.file.filename, job.bytes);
      requireText(job.file, text);
      const chunks = await chunkByKind(job.file.kind, text);
      for (let start = 0, block = 0; start < chunks.length; start += TEXT_BLOCK_CHUNKS, block++)
        await send(block, chunks.slice(start, start + TEXT_BLOCK_CHUNKS));
      return { ok: true, chunkCount, pages: 0 };
    }
    if (job.op === 'pdf-scan') {
      checkPdfDecodedSize(job.file.filename, job.bytes, job.limits);
      return { ok: true, chunkCount: 0, pages: 0 };
    }
    const pages = await extractPdfShare(job.file.filename, job.bytes, { index: job.share, of: job.shares, blockPages: PDF_BLOCK_PAGES }, (block, text) =>
      send(job.share * PARTS_PER_SHARE + block, text.trim() === '' ? [] : chunkPlainText(text)),
    );
    return { ok: true, chunkCount, pages };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.toBody() };
    return { ok: false, error: null, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether an embedder's vectors can be computed on the extraction thread. */
export const embedsOnThread = (model: string): boolean => model === new HashingEmbedder().model;
