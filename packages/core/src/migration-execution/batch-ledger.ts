import type { Store } from '../store/store';
import { OwnershipLost } from './run-failures';

/** One batch of a batched step, as the state store keeps it. */
export interface BatchRecord {
  /** 1-based, in run order; a batch redone after a lost executor gets the next number. */
  batchNo: number;
  /** Exclusive lower bound of the key range (text form); null: from the first key. */
  lower: string | null;
  /** Inclusive upper bound; null: to the last key (the step's last batch). */
  upper: string | null;
  /** The batch's transaction id on the target (`pg_current_xact_id()`), recorded before its COMMIT. */
  xid: string;
  /** Rows the batch's statement changed. */
  rows: number;
  /** `pending`: recorded before COMMIT; `done`: committed; `aborted`: found rolled back after a lost executor. */
  state: 'pending' | 'done' | 'aborted';
}

export interface BatchStepState {
  rowsTotal: number;
  batches: BatchRecord[];
}

/**
 * Where the executor writes a batched step's progress, so that a run resumed after a lost
 * executor neither repeats nor skips a batch. Writes throw {@link OwnershipLost} when the
 * request is no longer this attempt's.
 */
export interface BatchLedger {
  /** The step as an earlier attempt left it, or null when it never started. */
  load(statementIndex: number): Promise<BatchStepState | null>;
  /** The step starts: `rows_total` counted, `rows_done` 0. */
  start(statementIndex: number, rowsTotal: number): Promise<void>;
  /** Before the batch's COMMIT on the target. */
  pending(statementIndex: number, batch: Omit<BatchRecord, 'state'>): Promise<void>;
  /** After its COMMIT (or when a lost run's pending batch is found committed): adds its rows to `rows_done`. */
  done(statementIndex: number, batchNo: number): Promise<void>;
  /** A lost run's pending batch was found rolled back: it will be redone under a new number. */
  aborted(statementIndex: number, batchNo: number): Promise<void>;
}

interface BatchRow {
  batch_no: number;
  lower_key: string | null;
  upper_key: string | null;
  xid: string;
  rows: string | number;
  state: BatchRecord['state'];
}

/** The ledger of one claimed request in the state store (`migration_request_batches`, counters on `migration_requests`). */
export function storeBatchLedger(store: Store, claim: { requestId: string; attemptId: string }, clock: { now(): Date; leaseMs: number }): BatchLedger {
  const owned = (rowCount: number) => {
    if (rowCount === 0) throw new OwnershipLost();
  };
  const lease = () => new Date(clock.now().getTime() + clock.leaseMs);
  return {
    async load(statementIndex) {
      const head = await store.query<{ rows_total: string | number | null }>(
        'SELECT rows_total FROM migration_requests WHERE id = $1 AND batched_statement = $2',
        [claim.requestId, statementIndex],
      );
      if (!head.rows[0] || head.rows[0].rows_total === null) return null;
      const rows = await store.query<BatchRow>(
        `SELECT batch_no, lower_key, upper_key, xid, rows, state FROM migration_request_batches
          WHERE request_id = $1 AND statement_index = $2 ORDER BY batch_no`,
        [claim.requestId, statementIndex],
      );
      return {
        rowsTotal: Number(head.rows[0].rows_total),
        batches: rows.rows.map((r) => ({ batchNo: r.batch_no, lower: r.lower_key, upper: r.upper_key, xid: r.xid, rows: Number(r.rows), state: r.state })),
      };
    },
    async start(statementIndex, rowsTotal) {
      const res = await store.query(
        `UPDATE migration_requests SET batched_statement = $3, rows_total = $4, rows_done = 0, lease_expires_at = $5
          WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`,
        [claim.requestId, claim.attemptId, statementIndex, rowsTotal, lease()],
      );
      owned(res.rowCount);
    },
    async pending(statementIndex, b) {
      const res = await store.query(
        `INSERT INTO migration_request_batches (request_id, statement_index, batch_no, lower_key, upper_key, xid, rows, state, attempt_id, recorded_at)
         SELECT $1, $3, $4, $5, $6, $7, $8, 'pending', $2, $9
          WHERE EXISTS (SELECT 1 FROM migration_requests WHERE id = $1 AND attempt_id = $2 AND status = 'executing')
         ON CONFLICT (request_id, statement_index, batch_no) DO UPDATE
            SET lower_key = EXCLUDED.lower_key, upper_key = EXCLUDED.upper_key, xid = EXCLUDED.xid, rows = EXCLUDED.rows,
                state = 'pending', attempt_id = EXCLUDED.attempt_id, recorded_at = EXCLUDED.recorded_at`,
        [claim.requestId, claim.attemptId, statementIndex, b.batchNo, b.lower, b.upper, b.xid, b.rows, clock.now()],
      );
      owned(res.rowCount);
    },
    async done(statementIndex, batchNo) {
      // Counted once: only a batch still pending turns done and adds its rows.
      const res = await store.query(
        `WITH b AS (
           UPDATE migration_request_batches SET state = 'done', recorded_at = $5
            WHERE request_id = $1 AND statement_index = $3 AND batch_no = $4 AND state = 'pending'
              AND EXISTS (SELECT 1 FROM migration_requests WHERE id = $1 AND attempt_id = $2 AND status = 'executing')
           RETURNING rows)
         UPDATE migration_requests SET rows_done = COALESCE(rows_done, 0) + (SELECT COALESCE(sum(rows), 0) FROM b), lease_expires_at = $6
          WHERE id = $1 AND attempt_id = $2 AND status = 'executing'`,
        [claim.requestId, claim.attemptId, statementIndex, batchNo, clock.now(), lease()],
      );
      owned(res.rowCount);
    },
    async aborted(statementIndex, batchNo) {
      const res = await store.query(
        `UPDATE migration_request_batches SET state = 'aborted', recorded_at = $5
          WHERE request_id = $1 AND statement_index = $3 AND batch_no = $4 AND state = 'pending'
            AND EXISTS (SELECT 1 FROM migration_requests WHERE id = $1 AND attempt_id = $2 AND status = 'executing')`,
        [claim.requestId, claim.attemptId, statementIndex, batchNo, clock.now()],
      );
      owned(res.rowCount);
    },
  };
}

/** A ledger in memory, for runs nothing resumes (a run without a state store). */
export function memoryBatchLedger(): BatchLedger {
  const steps = new Map<number, BatchStepState>();
  const step = (i: number) => steps.get(i) ?? steps.set(i, { rowsTotal: 0, batches: [] }).get(i)!;
  return {
    load: async (i) => {
      const s = steps.get(i);
      return s ? { rowsTotal: s.rowsTotal, batches: s.batches.map((b) => ({ ...b })) } : null;
    },
    start: async (i, rowsTotal) => void steps.set(i, { rowsTotal, batches: [] }),
    pending: async (i, b) => {
      const s = step(i);
      s.batches = [...s.batches.filter((x) => x.batchNo !== b.batchNo), { ...b, state: 'pending' }];
    },
    done: async (i, n) => {
      for (const b of step(i).batches) if (b.batchNo === n && b.state === 'pending') b.state = 'done';
    },
    aborted: async (i, n) => {
      for (const b of step(i).batches) if (b.batchNo === n && b.state === 'pending') b.state = 'aborted';
    },
  };
}
