import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { iso } from '../util/timestamps';
import { rejectDocument } from './document-rejection';
import { type DocumentKind, kindByName } from './document-type';
import { tokenHash } from './upload-batches';

/** A slot claimed by an upload in progress: what the bytes must be, and where they go. */
export interface ClaimedSlot {
  filename: string;
  sizeBytes: number;
  contentType: string;
  kind: DocumentKind;
  storageKey: string;
}

interface SlotRow {
  filename: string;
  size_bytes: number;
  media_type: string;
  storage_key: string;
  uploaded_at: unknown;
  status: string;
  expires_at: unknown;
}

const baseType = (t: string | undefined): string => (t ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Claims the slot a local upload URL names, as S3 checks a presigned POST: an unknown token is
 * 403, an expired slot 403 (`slot_expired`), a slot already used (or whose batch is confirmed)
 * 409 (`slot_used`), a body declared bigger than the slot 413, and a Content-Type other than the
 * slot's 422. The claim is atomic, so two uploads racing for one slot cannot both win; a failed
 * upload gives the slot back ({@link releaseSlot}).
 */
export async function claimSlot(
  deps: { store: Store; clock: Clock },
  token: string,
  request: { contentType: string | undefined; contentLength: number | undefined },
): Promise<ClaimedSlot> {
  const hash = tokenHash(token);
  const res = await deps.store.query<SlotRow>(
    `SELECT f.filename, f.size_bytes, f.media_type, f.storage_key, f.uploaded_at, b.status, b.expires_at
     FROM document_batch_files f JOIN document_batches b ON b.id = f.batch_id WHERE f.token_sha256 = $1`,
    [hash],
  );
  const slot = res.rows[0];
  if (!slot) throw new AppError('FORBIDDEN', 'Unknown upload slot');
  const { filename } = slot;
  if (slot.uploaded_at !== null || slot.status !== 'awaiting_upload')
    throw rejectDocument(filename, 'slot_used', `The upload slot for ${filename} was already used`);
  if (deps.clock.now().getTime() > new Date(iso(slot.expires_at)).getTime()) {
    throw rejectDocument(filename, 'slot_expired', `The upload slot for ${filename} has expired; ask for a new batch`);
  }
  const size = Number(slot.size_bytes);
  if (request.contentLength !== undefined && request.contentLength > size) {
    throw rejectDocument(filename, 'too_large', `${filename} is ${request.contentLength} bytes, more than the ${size} its slot was made for`, {
      limit_bytes: size,
    });
  }
  if (baseType(request.contentType) !== baseType(slot.media_type)) {
    throw rejectDocument(
      filename,
      'unsupported_type',
      `${filename} was sent as ${request.contentType ?? 'no type'}; its slot expects Content-Type ${slot.media_type}`,
      {
        content_type: request.contentType ?? null,
      },
    );
  }
  const claimed = await deps.store.query(`UPDATE document_batch_files SET uploaded_at = $2 WHERE token_sha256 = $1 AND uploaded_at IS NULL RETURNING 1`, [
    hash,
    deps.clock.now(),
  ]);
  if (claimed.rows.length === 0) throw rejectDocument(filename, 'slot_used', `The upload slot for ${filename} was already used`);
  return { filename, sizeBytes: size, contentType: slot.media_type, kind: kindByName(filename, slot.media_type), storageKey: slot.storage_key };
}

/** Gives a slot back after a refused or broken upload, so the client can try again. */
export async function releaseSlot(store: Store, token: string): Promise<void> {
  await store.query('UPDATE document_batch_files SET uploaded_at = NULL, received_bytes = NULL WHERE token_sha256 = $1', [tokenHash(token)]);
}

/** Records the bytes received for a completed upload. */
export async function completeSlot(store: Store, token: string, receivedBytes: number): Promise<void> {
  await store.query('UPDATE document_batch_files SET received_bytes = $2 WHERE token_sha256 = $1', [tokenHash(token), receivedBytes]);
}
