import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '../errors/app-error';
import type { Queryable, Store } from '../store/store';
import type { MigrationError, MigrationResult } from './migration-outcome';
import { EXECUTOR_CODES } from './migration-outcome';
import { REQUEST_COLUMNS, type MigrationRequestRecord, type RequestRow, toRecord } from './request-record';

const ONE_ACTIVE_INDEX = 'migration_requests_one_active';

interface PgLikeError {
  code?: string;
  constraint?: string;
  message?: string;
}

const isUniqueViolationOf = (e: unknown, index: string): boolean => {
  const err = e as PgLikeError;
  return err?.code === '23505' && (err.constraint === index || (err.message ?? '').includes(index));
};

async function findByNonce(db: Queryable, nonce: string): Promise<RequestRow | undefined> {
  const res = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM migration_requests WHERE token_nonce = $1`, [nonce]);
  return res.rows[0];
}

/**
 * Records a new `pending` request for a token, or finds the one the token already created.
 * Both rules live in the database: the unique nonce makes concurrent replays collapse onto one
 * row, and the partial unique index on active requests makes a second migration on the
 * connection fail with MIGRATION_IN_PROGRESS, whatever the interleaving.
 */
export async function createOrReplayRequest(
  store: Store,
  input: { userId: string; connectionId: string; nonce: string; sql: string; sqlSha256: string; now: Date },
): Promise<{ row: RequestRow; created: boolean }> {
  try {
    const res = await store.query<RequestRow>(
      `INSERT INTO migration_requests (id, user_id, connection_id, token_nonce, sql, sql_sha256, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)
       ON CONFLICT (token_nonce) DO NOTHING
       RETURNING ${REQUEST_COLUMNS}`,
      [randomUUID(), input.userId, input.connectionId, input.nonce, input.sql, input.sqlSha256, input.now],
    );
    if (res.rows[0]) return { row: res.rows[0], created: true };
  } catch (error) {
    if (!isUniqueViolationOf(error, ONE_ACTIVE_INDEX)) throw error;
    // A concurrent replay of this very token may have won the race on the other index.
    const mine = await findByNonce(store, input.nonce);
    if (mine) return { row: mine, created: false };
    throw new AppError('MIGRATION_IN_PROGRESS', 'Another migration is already pending or executing on this connection; retry after it ends.');
  }
  const existing = await findByNonce(store, input.nonce);
  if (!existing) throw new Error('token nonce vanished between insert and read');
  return { row: existing, created: false };
}

/** The caller's request; NOT_FOUND for an unknown id or another user's request. */
export async function getRequest(store: Store, userId: string, requestId: string): Promise<MigrationRequestRecord> {
  const res = await store.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM migration_requests WHERE id = $1 AND user_id = $2`, [requestId, userId]);
  if (!res.rows[0]) throw notFound('Migration request');
  return toRecord(res.rows[0]);
}

/** The caller's requests on one connection, newest first. */
export async function listRequests(store: Store, userId: string, connectionId: string, limit = 100): Promise<MigrationRequestRecord[]> {
  const res = await store.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS} FROM migration_requests WHERE connection_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [connectionId, userId, limit],
  );
  return res.rows.map(toRecord);
}

/** What the executor needs of a request it now owns. */
export interface ClaimedRequest {
  requestId: string;
  userId: string;
  connectionId: string;
  sql: string;
  attemptId: string;
  /** Set when the request was resumed after a lost executor (`resumeLostRequests`): the statements that run durably applied. */
  resume: { applied: Array<{ statement_index: number; transactional: boolean }> } | null;
}

/**
 * Moves `pending -> executing` atomically and takes the lease. Null when the request is not
 * pending (already started, finished or failed): a redelivered message then does nothing. A
 * resumed request keeps its first `started_at`.
 */
export async function claimRequest(store: Store, requestId: string, now: Date, leaseMs: number): Promise<ClaimedRequest | null> {
  const attemptId = randomUUID();
  const res = await store.query<{
    user_id: string;
    connection_id: string;
    sql: string;
    resumes: number;
    handoffs: number;
    applied: Array<{ statement_index: number; transactional: boolean }> | string;
  }>(
    `UPDATE migration_requests
        SET status = 'executing', started_at = COALESCE(started_at, $2), attempt_id = $3, lease_expires_at = $4,
            progress = CASE WHEN progress = $5 THEN 'continuing in a new executor run' WHEN resumes > 0 THEN 'resuming after a lost executor' ELSE 'starting' END
      WHERE id = $1 AND status = 'pending'
      RETURNING user_id, connection_id, sql, resumes, handoffs, applied`,
    [requestId, now, attemptId, new Date(now.getTime() + leaseMs), HANDED_OFF_PROGRESS],
  );
  const row = res.rows[0];
  if (!row) return null;
  const applied = typeof row.applied === 'string' ? (JSON.parse(row.applied) as Array<{ statement_index: number; transactional: boolean }>) : row.applied;
  return {
    requestId,
    userId: row.user_id,
    connectionId: row.connection_id,
    sql: row.sql,
    attemptId,
    resume:
      row.resumes > 0 || row.handoffs > 0 ? { applied: applied.map((a) => ({ statement_index: a.statement_index, transactional: a.transactional })) } : null,
  };
}

/** The progress a handed-off request shows until the next executor run claims it. */
export const HANDED_OFF_PROGRESS = 'waiting for a new executor run (the last one reached its time limit inside a batched step)';

/**
 * Gives a request back to the queue from inside a batched step, near the executor's time limit:
 * `executing -> pending` for the next run, which goes on from the last committed batch as a
 * resumed run does, without counting against the resumes of lost executors. The pending timeout
 * counts from now. False when this attempt no longer owns the request.
 */
export async function handOffRequest(store: Store, claim: ClaimedRequest, now: Date): Promise<boolean> {
  const res = await store.query(
    `UPDATE migration_requests SET status = 'pending', attempt_id = NULL, handoffs = handoffs + 1, lease_expires_at = $3, progress = $4
      WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`,
    [claim.requestId, claim.attemptId, now, HANDED_OFF_PROGRESS],
  );
  return res.rowCount === 1;
}

/** Renews the lease; false when this attempt no longer owns the request (it was expired). */
export async function renewLease(store: Store, claim: ClaimedRequest, now: Date, leaseMs: number): Promise<boolean> {
  const res = await store.query(`UPDATE migration_requests SET lease_expires_at = $3 WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`, [
    claim.requestId,
    claim.attemptId,
    new Date(now.getTime() + leaseMs),
  ]);
  return res.rowCount > 0;
}

/** Sets the progress text and the statement being run; renews the lease on the way. */
export async function setProgress(store: Store, claim: ClaimedRequest, text: string, statementIndex: number | null, now: Date, leaseMs: number): Promise<void> {
  await store.query(
    `UPDATE migration_requests SET progress = $3, current_statement = $4, lease_expires_at = $5
      WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`,
    [claim.requestId, claim.attemptId, text, statementIndex, new Date(now.getTime() + leaseMs)],
  );
}

/** Remembers statements that are applied for good, so a lost executor can still say which. */
export async function recordApplied(
  store: Store,
  claim: ClaimedRequest,
  applied: Array<{ statement_index: number; sql: string; transactional: boolean }>,
): Promise<void> {
  await store.query(`UPDATE migration_requests SET applied = applied || $3::jsonb WHERE id = $1 AND attempt_id = $2`, [
    claim.requestId,
    claim.attemptId,
    JSON.stringify(applied),
  ]);
}

/** The catalog before the run (lost-run-reconcile.ts), kept with the request. */
export async function recordCatalogBefore(store: Store, claim: ClaimedRequest, before: Record<string, unknown>): Promise<void> {
  await store.query(`UPDATE migration_requests SET catalog_before = $3::jsonb WHERE id = $1 AND attempt_id = $2`, [
    claim.requestId,
    claim.attemptId,
    JSON.stringify(before),
  ]);
}

/** `executing -> completed | failed`, only by the attempt that owns the request. */
export async function finishRequest(
  store: Store,
  claim: ClaimedRequest,
  outcome: { status: 'completed'; result: MigrationResult } | { status: 'failed'; error: MigrationError },
  now: Date,
): Promise<boolean> {
  const res = await store.query(
    `UPDATE migration_requests
        SET status = $3, result = $4::jsonb, error = $5::jsonb, progress = NULL, completed_at = $6, lease_expires_at = NULL
      WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`,
    [
      claim.requestId,
      claim.attemptId,
      outcome.status,
      outcome.status === 'completed' ? JSON.stringify(outcome.result) : null,
      outcome.status === 'failed' ? JSON.stringify(outcome.error) : null,
      now,
    ],
  );
  return res.rowCount > 0;
}

const LOST_MESSAGE =
  'The executor stopped renewing its lease while the migration was running (process killed, crashed or timed out). ' +
  'The migration was not retried. PostgreSQL rolls back the open transaction when the session ends, so only statements ' +
  'listed in applied_non_transactional and committed_transactional are applied.';
const LOST_HINT =
  'Check the schema (introspect the connection), look for INVALID indexes if the script used CREATE INDEX CONCURRENTLY, then analyze what remains.';
const RESUME_NOT_STARTED_MESSAGE =
  'The executor was lost inside a batched step and the run was put back to resume from its last committed batch, but no executor ' +
  'took it up in time. Only statements listed in applied_non_transactional and committed_transactional, and the batches counted in rows_done, are applied.';
const NOT_STARTED_MESSAGE = 'No executor picked up the request in time; nothing was run on the database.';

/** A lost run is resumed at most this many times; then it fails as lost (an executor that keeps dying there would otherwise loop). */
export const MAX_RESUMES = 3;

/**
 * A lost executor's request is resumable when it was inside a batched step (`current_statement`
 * is the step that recorded its start): everything before that step is recorded applied, and the
 * step's batches say where to go on (`run-batched-step.ts`).
 */
const RESUMABLE = `(batched_statement IS NOT NULL AND COALESCE(current_statement = batched_statement, false) AND resumes < ${MAX_RESUMES})`;

/**
 * Puts requests whose executor is gone inside a batched step back to `pending`, to be claimed by
 * the next executor, which goes on from the last committed batch. Returns their ids: the caller
 * enqueues them (a queue message is the only way an executor starts). Optionally limited to one
 * connection or request. Call before {@link expireStaleRequests}, which fails the others.
 */
export async function resumeLostRequests(store: Store, now: Date, scope: { connectionId?: string; requestId?: string } = {}): Promise<string[]> {
  const filter = scope.requestId ? 'AND id = $2' : scope.connectionId ? 'AND connection_id = $2' : 'AND $2::uuid IS NULL';
  const res = await store.query<{ id: string }>(
    `UPDATE migration_requests SET status = 'pending', attempt_id = NULL, resumes = resumes + 1, progress = 'waiting to resume after a lost executor'
      WHERE status = 'executing' AND lease_expires_at < $1 AND ${RESUMABLE} ${filter}
      RETURNING id`,
    [now, scope.requestId ?? scope.connectionId ?? null],
  );
  return res.rows.map((r) => r.id);
}

/**
 * Fails requests whose executor is gone: `executing` with an expired lease (never re-run) unless
 * it is resumable (see {@link resumeLostRequests}), a resumed request no executor took within the
 * pending timeout, and `pending` older than the pending timeout. Optionally limited to one
 * connection or request. Returns how many requests it failed.
 */
export async function expireStaleRequests(
  store: Store,
  now: Date,
  pendingTimeoutMs: number,
  scope: { connectionId?: string; requestId?: string } = {},
): Promise<number> {
  const filter = scope.requestId ? 'AND id = $3' : scope.connectionId ? 'AND connection_id = $3' : 'AND $3::uuid IS NULL';
  const target = scope.requestId ?? scope.connectionId ?? null;
  const lost = await store.query(
    `UPDATE migration_requests
        SET status = 'failed', progress = NULL, completed_at = $1, lease_expires_at = NULL,
            error = jsonb_build_object(
              'code', '${EXECUTOR_CODES.EXECUTOR_LOST}',
              'message', CASE WHEN status = 'pending' THEN $6::text ELSE $2::text END,
              'statement_index', current_statement,
              'applied_non_transactional', COALESCE((SELECT jsonb_agg(jsonb_build_object('statement_index', e->'statement_index', 'sql', e->'sql'))
                                                       FROM jsonb_array_elements(applied) e WHERE NOT (e->>'transactional')::boolean), '[]'::jsonb),
              'committed_transactional', COALESCE((SELECT jsonb_agg(e->'statement_index')
                                                     FROM jsonb_array_elements(applied) e WHERE (e->>'transactional')::boolean), '[]'::jsonb),
              'rolled_back', true,
              'invalid_indexes', '[]'::jsonb,
              'hint', $4::text)
      WHERE ((status = 'executing' AND lease_expires_at < $1 AND NOT ${RESUMABLE})
             OR (status = 'pending' AND (resumes > 0 OR handoffs > 0) AND lease_expires_at < $5)) ${filter}`,
    [now, LOST_MESSAGE, target, LOST_HINT, new Date(now.getTime() - pendingTimeoutMs), RESUME_NOT_STARTED_MESSAGE],
  );
  const stale = await store.query(
    `UPDATE migration_requests
        SET status = 'failed', progress = NULL, completed_at = $1,
            error = jsonb_build_object('code', '${EXECUTOR_CODES.NOT_STARTED}', 'message', $2::text, 'statement_index', NULL,
              'applied_non_transactional', '[]'::jsonb, 'committed_transactional', '[]'::jsonb, 'rolled_back', false,
              'invalid_indexes', '[]'::jsonb, 'hint', 'Analyze the migration again and execute it with the new token.')
      WHERE status = 'pending' AND resumes = 0 AND handoffs = 0 AND created_at < $4 ${filter}`,
    [now, NOT_STARTED_MESSAGE, target, new Date(now.getTime() - pendingTimeoutMs)],
  );
  return lost.rowCount + stale.rowCount;
}
