import type { Queryable, Store } from '../store/store';
import { turnEventLoop } from '../util/turn-event-loop';

/**
 * Generations of a document's chunks (migration 0405). Chunks are written under a generation
 * nobody reads yet (`pending`); switching a documents row to it makes them visible and retires
 * the one it replaces; retired generations' chunks are deleted afterwards, a bounded number per
 * transaction, so neither the switch nor the clean-up holds the store for long however large
 * the documents are.
 */

/** Chunks deleted per transaction: about 100 ms of PGlite, so other requests run in between. */
const COLLECT_BATCH = 2_000;

/**
 * SQL: the condition that chunk `c` is visible. Every chunk's generation is either the one its
 * documents row names or listed in `document_generations` (pending or retired) until its last
 * chunk is deleted, so a chunk is visible exactly when its generation is not listed there. The
 * list is one small array computed once (an init plan), and the condition excludes almost
 * nothing in the planner's eyes, so the context query keeps the plans it had before
 * generations (HNSW order on RDS; a positive `IN (documents' generations)` was estimated to keep
 * 5 % of the rows and turned the plan into a scan and sort of the whole connection).
 */
export const VISIBLE_CHUNK = `coalesce(c.generation, c.document_id) <> ALL (ARRAY(SELECT generation FROM document_generations))`;

/** Opens a generation for `documentId` that a batch (or an upload transaction) writes chunks under. */
export async function openGeneration(tx: Queryable, generation: string, documentId: string, batchId: string | null): Promise<void> {
  await tx.query(`INSERT INTO document_generations (generation, document_id, batch_id, state) VALUES ($1, $2, $3, 'pending')`, [
    generation,
    documentId,
    batchId,
  ]);
}

/** Marks a generation's chunks for deletion (a replaced or deleted document's, or a batch's that will not switch). */
export async function retireGeneration(tx: Queryable, documentId: string, generation: string): Promise<void> {
  await tx.query(
    `INSERT INTO document_generations (generation, document_id, state) VALUES ($1, $2, 'retired')
     ON CONFLICT (generation) DO UPDATE SET state = 'retired'`,
    [generation, documentId],
  );
}

/** The generation is now the one its documents row names: it is no longer listed. */
export async function publishGeneration(tx: Queryable, generation: string): Promise<void> {
  await tx.query('DELETE FROM document_generations WHERE generation = $1', [generation]);
}

/**
 * Locks a pending generation against retirement while chunks are written to it (or it is
 * switched to), so a superseded delivery of a batch cannot add chunks to a generation that is
 * being deleted. Throws when it is no longer pending.
 */
export async function lockPendingGeneration(tx: Queryable, generation: string, mode: 'share' | 'update'): Promise<void> {
  const res = await tx.query<{ state: string }>(`SELECT state FROM document_generations WHERE generation = $1 FOR ${mode === 'share' ? 'SHARE' : 'UPDATE'}`, [
    generation,
  ]);
  if (res.rows[0]?.state !== 'pending') throw new GenerationSuperseded(`generation ${generation} is no longer pending`);
}

/** A generation was retired under a running ingestion (another delivery took the batch over). */
export class GenerationSuperseded extends Error {}

/**
 * Deletes the chunks of every retired generation, at most {@link COLLECT_BATCH} per transaction,
 * and the generation once it has none left. Pending generations whose batch is no longer being
 * ingested (a crash before the batch failed or switched) are retired first. Safe to run
 * concurrently and after a crash: it only ever deletes what no reader can see.
 */
export async function collectRetiredGenerations(store: Store): Promise<number> {
  await store.query(
    `UPDATE document_generations g SET state = 'retired'
     WHERE state = 'pending' AND NOT EXISTS (
       SELECT 1 FROM document_batch_files f JOIN document_batches b ON b.id = f.batch_id
       WHERE f.batch_id = g.batch_id AND f.generation = g.generation AND b.status IN ('queued', 'ingesting'))`,
  );
  let deleted = 0;
  for (;;) {
    const next = await store.query<{ generation: string; document_id: string }>(
      `SELECT generation, document_id FROM document_generations WHERE state = 'retired' ORDER BY created_at LIMIT 1`,
    );
    const g = next.rows[0];
    if (!g) return deleted;
    deleted += await store.transaction(async (tx) => {
      const held = await tx.query(`SELECT 1 FROM document_generations WHERE generation = $1 AND state = 'retired' FOR UPDATE`, [g.generation]);
      if (held.rows.length === 0) return 0;
      // A generation numbered by its document's id also holds the chunks written before 0405 (NULL).
      const res = await tx.query(
        `DELETE FROM document_chunks WHERE id IN (
           SELECT id FROM document_chunks WHERE document_id = $1 AND coalesce(generation, document_id) = $2 LIMIT $3)`,
        [g.document_id, g.generation, COLLECT_BATCH],
      );
      if (res.rowCount < COLLECT_BATCH) await tx.query('DELETE FROM document_generations WHERE generation = $1', [g.generation]);
      return res.rowCount;
    });
    await turnEventLoop();
  }
}
