import type { Embedder } from '../embeddings/embedder';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { rejectDocument } from './document-rejection';
import { embedDocument, type EmbeddedDocument, saveDocuments, type StoredDocument } from './document-store';
import { MAX_FILES_PER_BATCH } from './limits';
import { type IncomingFile, prepareDocument } from './prepare-document';

/** The spec's batch result, with `content_type` and `replaced` per document beyond it. */
export interface UploadResult {
  files_processed: number;
  total_chunks: number;
  documents: StoredDocument[];
}

/**
 * Checks, extracts, chunks and embeds every file of a batch, then stores them all in one
 * transaction. The first file that fails a check rejects the whole batch before anything is
 * written.
 */
export async function ingestDocuments(
  deps: { store: Store; embedder: Embedder; clock: Clock },
  input: { userId: string; connectionId: string; files: readonly IncomingFile[] },
): Promise<UploadResult> {
  const { files } = input;
  if (files.length > MAX_FILES_PER_BATCH) {
    const first = files[MAX_FILES_PER_BATCH]!;
    throw rejectDocument(first.filename, 'too_many_files', `${first.filename} is file ${MAX_FILES_PER_BATCH + 1} of the batch; at most ${MAX_FILES_PER_BATCH} files per upload`, {
      limit_files: MAX_FILES_PER_BATCH,
    });
  }
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.filename)) throw rejectDocument(f.filename, 'duplicate_filename', `${f.filename} appears more than once in the batch`);
    seen.add(f.filename);
  }
  const embedded: EmbeddedDocument[] = [];
  for (const f of files) embedded.push(await embedDocument(deps.embedder, await prepareDocument(f)));
  const documents = await saveDocuments(deps.store, deps.embedder, {
    userId: input.userId,
    connectionId: input.connectionId,
    documents: embedded,
    now: deps.clock.now(),
  });
  return { files_processed: documents.length, total_chunks: documents.reduce((s, d) => s + d.chunk_count, 0), documents };
}
