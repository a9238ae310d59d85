import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { UploadStorage } from './upload-storage';

/**
 * How long after its slots expired an unconfirmed batch is kept: an upload claimed just before
 * the expiry may still be streaming (a 10 MB file on a slow link), and its file must not land
 * after the batch's files were deleted.
 */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;

/** Batches swept per call: a sweep on the request path stays short; the next call takes the rest. */
const SWEEP_BATCHES = 100;

/**
 * Deletes upload batches never confirmed, {@link SWEEP_GRACE_MS} after their slots expired:
 * their uploaded (and half-uploaded) files first, then their rows, so a crash in between leaves
 * rows that the next sweep finds again, never files that nothing names. Returns the number of
 * batches deleted. Runs when a batch is opened (before the user's pending bytes are counted) and,
 * in the local runtime, every minute.
 */
export async function sweepExpiredBatches(deps: { store: Store; clock: Clock; storage: UploadStorage }): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - SWEEP_GRACE_MS);
  const expired = await deps.store.query<{ id: string; keys: string[] }>(
    `SELECT b.id, coalesce(array_agg(f.storage_key) FILTER (WHERE f.storage_key IS NOT NULL), '{}') AS keys
     FROM document_batches b LEFT JOIN document_batch_files f ON f.batch_id = b.id
     WHERE b.status = 'awaiting_upload' AND b.expires_at < $1
     GROUP BY b.id, b.expires_at ORDER BY b.expires_at LIMIT ${SWEEP_BATCHES}`,
    [before],
  );
  let swept = 0;
  for (const batch of expired.rows) {
    await deps.storage.remove(batch.keys);
    // Confirmed meanwhile (its files were all there): it is no longer this sweep's.
    const deleted = await deps.store.query(`DELETE FROM document_batches WHERE id = $1 AND status = 'awaiting_upload' RETURNING 1`, [batch.id]);
    swept += deleted.rows.length;
  }
  return swept;
}
