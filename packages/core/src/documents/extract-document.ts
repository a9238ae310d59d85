import type { DocumentLimitSettings } from '../config';
import type { Embedder } from '../embeddings/embedder';
import { AppError } from '../errors/app-error';
import type { DocumentChunk } from './chunk';
import { rejectDocument } from './document-rejection';
import { embeddingText } from './embedding-text';
import { type ChunkBatch, embedsOnThread, type ExtractJob, type ExtractOutcome, shareOfPart } from './extract-job';
import { EXTRACT_THREADS, FileBudget, type JobContext, runOnExtractThread, warmExtractThreads } from './extract-threads';
import { type CheckedFile, checkFile, type IncomingFile } from './prepare-document';

/** A run of a document's chunks with their vectors; PDF page ranges are parts 0, 1, 2, ... */
export interface ExtractedPart {
  part: number;
  /** The extraction share the part came from (a PDF's page share; 0 for other files). */
  share: number;
  /** Index within its share of the part's first chunk: shares are numbered apart, in parallel. */
  first: number;
  chunks: DocumentChunk[];
  /** One per chunk; views into the thread's vectors when it computed them (no copy on the request loop). */
  vectors: ArrayLike<number>[];
}

export interface ExtractedFile extends CheckedFile {
  chunkCount: number;
  /** Chunks per share, in share order: a chunk's place in the document is its index plus the shares before. */
  shareCounts: number[];
}

const EMBED_BATCH = 64;

function failureOf(outcome: Exclude<ExtractOutcome, { ok: true }>): Error {
  if (outcome.error) return new AppError(outcome.error.code, outcome.error.message, outcome.error.details ? { details: outcome.error.details } : {});
  return new Error(outcome.message);
}

async function vectorsOf(embedder: Embedder, chunks: readonly DocumentChunk[], flat: Float32Array | null): Promise<ArrayLike<number>[]> {
  if (flat) {
    const d = embedder.dimension;
    return chunks.map((_, i) => flat.subarray(i * d, (i + 1) * d));
  }
  const vectors: ArrayLike<number>[] = [];
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) vectors.push(...(await embedder.embed(chunks.slice(i, i + EMBED_BATCH).map(embeddingText))));
  return vectors;
}

/** Whose file it is (extraction threads serve users fairly) and the bounds it is read within. */
export interface ExtractOptions {
  owner: string;
  limits: DocumentLimitSettings;
  /** A `performance.now()` time by which extraction must end (a request inside the gateway's window). */
  endsAt?: number;
}

/**
 * Checks, extracts, chunks and embeds one file off the request loop (extraction threads), handing
 * each run of chunks to `onPart` as soon as it is ready: a PDF's pages are shared out between the
 * threads (each opens the file once) and come back 100 pages at a time, so its first chunks are
 * stored while later pages are still being read. A PDF's compressed streams are first sized
 * within the decoded-byte bounds (pdf-stream-scan.ts), and all of the file's jobs share one CPU
 * budget (extract-threads.ts). Throws the rejection that names the file.
 */
export async function extractDocument(
  file: IncomingFile,
  embedder: Embedder,
  onPart: (part: ExtractedPart) => Promise<void>,
  options: ExtractOptions,
): Promise<ExtractedFile> {
  const checked = checkFile(file);
  const embed = embedsOnThread(embedder.model);
  const context: JobContext = { owner: options.owner, budget: new FileBudget(options.limits.cpuMs, options.endsAt) };
  if (checked.kind === 'pdf') {
    const limits = { streamBytes: options.limits.streamDecodedBytes, documentBytes: options.limits.documentDecodedBytes };
    warmExtractThreads(EXTRACT_THREADS);
    const scanned = await runOnExtractThread({ op: 'pdf-scan', file: checked, bytes: file.bytes, limits }, context, () => undefined);
    if (!scanned.ok) throw failureOf(scanned);
  }
  // Batches arrive as events; their storing runs alongside extraction and is awaited at the end.
  // One writer per share, each batch after the previous one: a file's twenty batches queued at
  // once on the store would put a request behind all of them, not behind one.
  const storing = new Map<number, Promise<void>>();
  // A share's batches arrive in order (one thread each), so its running count numbers them.
  const nextInShare = new Map<number, number>();
  const emit = (batch: ChunkBatch): void => {
    const share = shareOfPart(batch.part);
    const first = nextInShare.get(share) ?? 0;
    nextInShare.set(share, first + batch.chunks.length);
    const stored = (storing.get(share) ?? Promise.resolve()).then(async () =>
      onPart({ part: batch.part, share, first, chunks: batch.chunks, vectors: await vectorsOf(embedder, batch.chunks, batch.vectors) }),
    );
    stored.catch(() => undefined);
    storing.set(share, stored);
  };
  const jobs: ExtractJob[] =
    checked.kind === 'pdf'
      ? Array.from(
          { length: EXTRACT_THREADS },
          (_, share) => ({ op: 'pdf-share', file: checked, bytes: file.bytes, share, shares: EXTRACT_THREADS, embed }) as const,
        )
      : [{ op: 'text', file: checked, bytes: file.bytes, embed }];
  const outcomes = await Promise.all(jobs.map((job) => runOnExtractThread(job, context, emit)));
  await Promise.all(storing.values());
  let chunkCount = 0;
  const shareCounts: number[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) throw failureOf(outcome);
    chunkCount += outcome.chunkCount;
    shareCounts.push(outcome.chunkCount);
  }
  if (chunkCount === 0) {
    throw checked.kind === 'pdf'
      ? rejectDocument(file.filename, 'no_text', `${file.filename} has no extractable text (a scanned PDF needs OCR first)`)
      : rejectDocument(file.filename, 'no_text', `${file.filename} has no text to index`);
  }
  return { ...checked, chunkCount, shareCounts };
}
