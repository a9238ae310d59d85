import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, type ErrorBody, isAppError, notFound } from '../errors/app-error';
import type { DocumentLimitSettings } from '../config';
import type { Queryable, Store } from '../store/store';
import type { Clock } from '../util/clock';
import { iso } from '../util/timestamps';
import { rejectDocument } from './document-rejection';
import { CONTENT_TYPES, kindByName } from './document-type';
import type { UploadResult } from './ingest-documents';
import type { IngestQueue } from './ingest-queue';
import { MAX_FILE_BYTES, MAX_FILENAME_LENGTH, MAX_FILES_PER_BATCH } from './limits';
import type { UploadStorage, UploadTarget } from './upload-storage';
import { sweepExpiredBatches } from './upload-sweep';

/** How long upload slots accept a file after they were handed out. */
export const SLOT_TTL_MS = 15 * 60 * 1000;

export type BatchStatus = 'awaiting_upload' | 'queued' | 'ingesting' | 'completed' | 'failed';

/** One file a client asks a slot for. */
export interface SlotRequest {
  filename: string;
  size_bytes: number;
  content_type?: string | undefined;
}

/** A refused file, as listed in `rejections` (the error's details, plus its code and message). */
export interface FileRejection {
  filename: string;
  reason: string;
  code: string;
  message: string;
  [detail: string]: unknown;
}

export interface BatchFileView {
  filename: string;
  size_bytes: number;
  content_type: string;
  uploaded: boolean;
}

/** A batch as the API shows it; `slots` only in the answer that creates it. */
export interface BatchView {
  batch_id: string;
  connection_id: string;
  status: BatchStatus;
  created_at: string;
  expires_at: string;
  confirmed_at: string | null;
  finished_at: string | null;
  files: BatchFileView[];
  result: UploadResult | null;
  error: ErrorBody | null;
  rejections: FileRejection[];
  slots?: Array<UploadTarget & { filename: string; expires_at: string }>;
}

/** The rejection list entry of an error that names a file. */
export function rejectionOf(error: AppError): FileRejection {
  const details = error.details ?? {};
  return { ...details, filename: String(details.filename ?? ''), reason: String(details.reason ?? ''), code: error.code, message: error.message };
}

/** Throws the first rejection, with every rejection of the batch in `details.rejections`. */
function throwRejections(errors: readonly AppError[]): never {
  const first = errors[0]!;
  throw new AppError(first.code, first.message, { details: { ...first.details, rejections: errors.map(rejectionOf) } });
}

/** The storage key of a slot: the user and batch in the path, so a lifecycle rule and IAM can scope by prefix. */
const storageKey = (userId: string, batchId: string, position: number): string => `uploads/${userId}/${batchId}/${position}`;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The checks that need only the declared name, size and type; one rejection per refused file. */
function checkRequests(
  files: readonly SlotRequest[],
  sanitize: (name: string) => string,
): { errors: AppError[]; accepted: Array<SlotRequest & { contentType: string }> } {
  const errors: AppError[] = [];
  const accepted: Array<SlotRequest & { contentType: string }> = [];
  const seen = new Set<string>();
  files.forEach((f, i) => {
    const filename = sanitize(f.filename);
    try {
      if (i >= MAX_FILES_PER_BATCH) {
        throw rejectDocument(filename, 'too_many_files', `${filename} is file ${i + 1} of the batch; at most ${MAX_FILES_PER_BATCH} files per batch`, {
          limit_files: MAX_FILES_PER_BATCH,
        });
      }
      if (filename === '' || filename.length > MAX_FILENAME_LENGTH) {
        throw rejectDocument(filename.slice(0, 80), 'invalid_filename', `Every file needs a filename of 1-${MAX_FILENAME_LENGTH} characters`);
      }
      if (seen.has(filename)) throw rejectDocument(filename, 'duplicate_filename', `${filename} appears more than once in the batch`);
      seen.add(filename);
      if (f.size_bytes === 0) throw rejectDocument(filename, 'empty', `${filename} is empty`);
      if (f.size_bytes > MAX_FILE_BYTES)
        throw rejectDocument(filename, 'too_large', `${filename} is larger than the 10 MB limit per file`, { limit_bytes: MAX_FILE_BYTES });
      const kind = kindByName(filename, f.content_type);
      accepted.push({ ...f, filename, contentType: f.content_type?.trim() || CONTENT_TYPES[kind] });
    } catch (error) {
      if (!isAppError(error)) throw error;
      errors.push(error);
    }
  });
  return { errors, accepted };
}

interface BatchRow {
  id: string;
  user_id: string;
  connection_id: string;
  status: BatchStatus;
  created_at: unknown;
  expires_at: unknown;
  confirmed_at: unknown;
  finished_at: unknown;
  result: UploadResult | null;
  error: ErrorBody | null;
  rejections: FileRejection[] | null;
}

interface FileRow {
  position: number;
  filename: string;
  size_bytes: number;
  media_type: string;
  storage_key: string;
  uploaded_at: unknown;
}

const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

async function readBatch(db: Queryable, userId: string, connectionId: string, batchId: string, lock = false): Promise<{ batch: BatchRow; files: FileRow[] }> {
  const res = await db.query<BatchRow>(`SELECT * FROM document_batches WHERE id = $1 AND user_id = $2 AND connection_id = $3${lock ? ' FOR UPDATE' : ''}`, [
    batchId,
    userId,
    connectionId,
  ]);
  const batch = res.rows[0];
  if (!batch) throw notFound('Upload batch');
  const files = await db.query<FileRow>(
    'SELECT position, filename, size_bytes, media_type, storage_key, uploaded_at FROM document_batch_files WHERE batch_id = $1 ORDER BY position',
    [batchId],
  );
  return { batch, files: files.rows };
}

const view = ({ batch, files }: { batch: BatchRow; files: FileRow[] }): BatchView => ({
  batch_id: batch.id,
  connection_id: batch.connection_id,
  status: batch.status,
  created_at: iso(batch.created_at),
  expires_at: iso(batch.expires_at),
  confirmed_at: isoOrNull(batch.confirmed_at),
  finished_at: isoOrNull(batch.finished_at),
  files: files.map((f) => ({ filename: f.filename, size_bytes: Number(f.size_bytes), content_type: f.media_type, uploaded: f.uploaded_at !== null })),
  result: batch.result,
  error: batch.error,
  rejections: batch.rejections ?? [],
});

/** Declared bytes of the user's batches not yet ingested: open (unconfirmed), queued or ingesting. */
async function pendingBytes(db: Queryable, userId: string): Promise<number> {
  const res = await db.query<{ n: string }>(
    `SELECT coalesce(sum(f.size_bytes), 0)::bigint AS n FROM document_batch_files f JOIN document_batches b ON b.id = f.batch_id
     WHERE b.user_id = $1 AND b.status IN ('awaiting_upload', 'queued', 'ingesting')`,
    [userId],
  );
  return Number(res.rows[0]!.n);
}

/** Refuses the batch at the first file that takes the user's pending bytes past the quota. */
function checkQuota(files: ReadonlyArray<{ filename: string; size_bytes: number }>, pending: number, quota: number): void {
  let total = pending;
  for (const f of files) {
    total += f.size_bytes;
    if (total <= quota) continue;
    throw rejectDocument(
      f.filename,
      'pending_quota',
      `${f.filename} would take your uploads not yet ingested to ${total} bytes, over the ${quota} allowed; confirm or let expire the batches you opened`,
      { limit_bytes: quota, pending_bytes: pending },
    );
  }
}

/**
 * Opens a batch: checks every declared file (count, name, size, type by name) and hands out one
 * upload slot per file, valid for {@link SLOT_TTL_MS}. Any refused file refuses the batch, naming
 * every refused file in `details.rejections`. Expired unconfirmed batches are swept first, then
 * the user's pending bytes (declared sizes of batches not yet ingested) must stay within the
 * quota (`pending_quota`, 413); the count and the insert hold the user's row, so two batches
 * opened at once cannot both pass it.
 */
export async function createUploadBatch(
  deps: { store: Store; clock: Clock; storage: UploadStorage; settings: { documentLimits: DocumentLimitSettings } },
  input: { userId: string; connectionId: string; files: readonly SlotRequest[]; sanitizeFilename(name: string): string },
): Promise<BatchView> {
  const { errors, accepted } = checkRequests(input.files, input.sanitizeFilename);
  if (errors.length > 0) throwRejections(errors);
  await sweepExpiredBatches(deps);
  const batchId = randomUUID();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SLOT_TTL_MS);
  const slots = accepted.map((f, position) => ({
    ...f,
    position,
    token: randomBytes(32).toString('base64url'),
    key: storageKey(input.userId, batchId, position),
  }));
  await deps.store.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [input.userId]);
    checkQuota(accepted, await pendingBytes(tx, input.userId), deps.settings.documentLimits.pendingQuotaBytes);
    await tx.query(`INSERT INTO document_batches (id, user_id, connection_id, status, created_at, expires_at) VALUES ($1, $2, $3, 'awaiting_upload', $4, $5)`, [
      batchId,
      input.userId,
      input.connectionId,
      now,
      expiresAt,
    ]);
    for (const s of slots) {
      await tx.query(
        `INSERT INTO document_batch_files (batch_id, position, filename, size_bytes, media_type, token_sha256, storage_key) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [batchId, s.position, s.filename, s.size_bytes, s.contentType, tokenHash(s.token), s.key],
      );
    }
  });
  const targets = await Promise.all(
    slots.map(async (s) => ({
      filename: s.filename,
      expires_at: expiresAt.toISOString(),
      ...(await deps.storage.createTarget({ key: s.key, token: s.token, sizeBytes: s.size_bytes, contentType: s.contentType, expiresAt })),
    })),
  );
  return { ...view(await readBatch(deps.store, input.userId, input.connectionId, batchId)), slots: targets };
}

/** The batch, as its owner polls it; NOT_FOUND for another user's or connection's batch. */
export async function getUploadBatch(db: Queryable, userId: string, connectionId: string, batchId: string): Promise<BatchView> {
  return view(await readBatch(db, userId, connectionId, batchId));
}

/**
 * Confirms a batch whose files are all uploaded and queues its ingestion. Confirming again is
 * harmless: a queued or ingesting batch is queued again (ingestion is idempotent), a finished one
 * is returned as it is. Files still missing are refused by name and the batch stays open.
 */
export async function confirmUploadBatch(
  deps: { store: Store; clock: Clock; storage: UploadStorage; queue: IngestQueue },
  input: { userId: string; connectionId: string; batchId: string },
): Promise<BatchView> {
  const now = deps.clock.now();
  const status = await deps.store.transaction(async (tx) => {
    const { batch, files } = await readBatch(tx, input.userId, input.connectionId, input.batchId, true);
    if (batch.status !== 'awaiting_upload') return batch.status;
    const expired = now.getTime() > new Date(iso(batch.expires_at)).getTime();
    const missing: AppError[] = [];
    for (const f of files) {
      if (f.uploaded_at !== null) continue;
      // S3 uploads never pass through the service: the object itself is the proof.
      if (!(await deps.storage.exists(f.storage_key))) {
        missing.push(
          rejectDocument(
            f.filename,
            'not_uploaded',
            expired ? `${f.filename} was not uploaded before its slot expired; ask for a new batch` : `${f.filename} has not been uploaded yet`,
          ),
        );
      }
    }
    if (missing.length > 0) throwRejections(missing);
    await tx.query('UPDATE document_batch_files SET uploaded_at = $2 WHERE batch_id = $1 AND uploaded_at IS NULL', [input.batchId, now]);
    await tx.query(`UPDATE document_batches SET status = 'queued', confirmed_at = $2 WHERE id = $1`, [input.batchId, now]);
    return 'queued' as const;
  });
  if (status === 'queued' || status === 'ingesting') await deps.queue.enqueue({ batchId: input.batchId });
  return getUploadBatch(deps.store, input.userId, input.connectionId, input.batchId);
}

/** Batches confirmed but not finished: the local runtime queues them again at start. */
export async function unfinishedBatchIds(db: Queryable): Promise<string[]> {
  const res = await db.query<{ id: string }>(`SELECT id FROM document_batches WHERE status IN ('queued', 'ingesting') ORDER BY confirmed_at`);
  return res.rows.map((r) => r.id);
}
