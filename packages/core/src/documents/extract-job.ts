import { isAppError, type ErrorBody } from '../errors/app-error';
import { HashingEmbedder } from '../embeddings/hashing-embedder';
import type { DocumentChunk } from './chunk';
import { chunkPlainText } from './chunk-text';
import { embeddingText } from './embedding-text';
import { extractPdfPages, pdfPageCount } from './extract-pdf';
import { chunkByKind, type CheckedFile, decodeText, requireText } from './prepare-document';

/**
 * One unit of extraction work, small enough to run on an extraction thread: a whole text,
 * Markdown or SQL file, a range of PDF pages, or counting a PDF's pages. Everything in it is
 * cloneable, so the same job runs on a thread or in-process.
 */
export type ExtractJob =
  | { op: 'text'; file: CheckedFile; bytes: Uint8Array; embed: boolean }
  | { op: 'pdf-pages'; file: CheckedFile; bytes: Uint8Array; from: number; to: number; embed: boolean }
  | { op: 'pdf-count'; file: CheckedFile; bytes: Uint8Array };

/** Chunks (indexed from 0 within the job) and, when asked for, their vectors laid end to end. */
export type ExtractOutcome =
  | { ok: true; chunks: DocumentChunk[]; vectors: Float32Array | null; pages: number }
  | { ok: false; error: ErrorBody }
  | { ok: false; error: null; message: string };

let hashing: HashingEmbedder | undefined;

/** Vectors of the offline hashing embedder, computed where the chunks are (no I/O involved). */
async function embedHashing(chunks: readonly DocumentChunk[]): Promise<Float32Array> {
  hashing ??= new HashingEmbedder();
  const out = new Float32Array(chunks.length * hashing.dimension);
  const vectors = await hashing.embed(chunks.map(embeddingText));
  vectors.forEach((v, i) => out.set(v, i * hashing!.dimension));
  return out;
}

async function chunksOf(job: ExtractJob): Promise<{ chunks: DocumentChunk[]; pages: number }> {
  switch (job.op) {
    case 'pdf-count':
      return { chunks: [], pages: await pdfPageCount(job.file.filename, job.bytes) };
    case 'pdf-pages': {
      const text = await extractPdfPages(job.file.filename, job.bytes, job.from, job.to);
      return { chunks: text.trim() === '' ? [] : chunkPlainText(text), pages: 0 };
    }
    case 'text': {
      const text = decodeText(job.file.filename, job.bytes);
      requireText(job.file, text);
      return { chunks: await chunkByKind(job.file.kind, text), pages: 0 };
    }
  }
}

/** Runs one job; a rejection of the file comes back as its error body, anything else as a message. */
export async function runExtractJob(job: ExtractJob): Promise<ExtractOutcome> {
  try {
    const { chunks, pages } = await chunksOf(job);
    const vectors = job.op !== 'pdf-count' && job.embed && chunks.length > 0 ? await embedHashing(chunks) : null;
    return { ok: true, chunks, vectors, pages };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.toBody() };
    return { ok: false, error: null, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether an embedder's vectors can be computed on the extraction thread. */
export const embedsOnThread = (model: string): boolean => model === new HashingEmbedder().model;
