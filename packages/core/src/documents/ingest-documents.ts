import type { DocumentLimitSettings } from '../config';
import type { Embedder } from '../embeddings/embedder';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { rejectDocument } from './document-rejection';
import { type EmbeddedDocument, saveDocuments, type StoredDocument } from './document-store';
import { extractDocument, type ExtractedPart } from './extract-document';
import { EXTRACT_THREADS } from './extract-threads';
import { MAX_FILES_PER_BATCH } from './limits';
import type { IncomingFile } from './prepare-document';

/** The spec's batch result, with `content_type` and `replaced` per document beyond it. */
export interface UploadResult {
  files_processed: number;
  total_chunks: number;
  documents: StoredDocument[];
}

/** Refuses a batch over the file limit (naming the first file past it) or naming a file twice. */
export function checkBatchShape(filenames: readonly string[]): void {
  if (filenames.length > MAX_FILES_PER_BATCH) {
    const first = filenames[MAX_FILES_PER_BATCH]!;
    throw rejectDocument(first, 'too_many_files', `${first} is file ${MAX_FILES_PER_BATCH + 1} of the batch; at most ${MAX_FILES_PER_BATCH} files per upload`, {
      limit_files: MAX_FILES_PER_BATCH,
    });
  }
  const seen = new Set<string>();
  for (const f of filenames) {
    if (seen.has(f)) throw rejectDocument(f, 'duplicate_filename', `${f} appears more than once in the batch`);
    seen.add(f);
  }
}

/** Runs `fn` over `items` with at most `limit` running at once; results keep the items' order. */
export async function settleAll<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await fn(items[i]!, i) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Joins a document's parts in order and numbers its chunks from 0. */
export function joinParts(parts: readonly ExtractedPart[]): Pick<EmbeddedDocument, 'vectors'> & { chunks: EmbeddedDocument['document']['chunks'] } {
  const ordered = [...parts].sort((a, b) => a.part - b.part);
  const chunks = ordered.flatMap((p) => p.chunks).map((c, index) => ({ ...c, index }));
  return { chunks, vectors: ordered.flatMap((p) => p.vectors) };
}

/**
 * Checks, extracts, chunks and embeds every file of a batch (on extraction threads), then stores
 * them all in one transaction. Any rejected file rejects the whole batch before anything is
 * written; the first one in the batch's order is reported.
 */
export async function ingestDocuments(
  deps: { store: Store; embedder: Embedder; clock: Clock; settings: { documentLimits: DocumentLimitSettings } },
  input: { userId: string; connectionId: string; files: readonly IncomingFile[]; endsAt?: number },
): Promise<UploadResult> {
  checkBatchShape(input.files.map((f) => f.filename));
  const settled = await settleAll(input.files, EXTRACT_THREADS, async (f) => {
    const parts: ExtractedPart[] = [];
    const meta = await extractDocument(
      f,
      deps.embedder,
      async (p) => {
        parts.push(p);
      },
      { owner: input.userId, limits: deps.settings.documentLimits, ...(input.endsAt === undefined ? {} : { endsAt: input.endsAt }) },
    );
    const { chunks, vectors } = joinParts(parts);
    return { document: { ...meta, chunks }, vectors } satisfies EmbeddedDocument;
  });
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const documents = await saveDocuments(deps.store, deps.embedder, {
    userId: input.userId,
    connectionId: input.connectionId,
    documents: settled.map((s) => (s as PromiseFulfilledResult<EmbeddedDocument>).value),
    now: deps.clock.now(),
  });
  return { files_processed: documents.length, total_chunks: documents.reduce((s, d) => s + d.chunk_count, 0), documents };
}
