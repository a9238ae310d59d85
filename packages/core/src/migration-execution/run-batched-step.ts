import type pg from 'pg';
import type { BatchLedger } from './batch-ledger';
import { batchTargetProblem } from './batch-target-check';
import type { BatchAnnotation } from './batched-annotation';
import type { BatchedStatement } from './batched-statement';
import { type ExecutionSettings, lockBackoffMs } from './execution-settings';
import type { PlannedStatement } from './migration-plan';
import { EXECUTOR_CODES } from './migration-outcome';
import { ExecutorFault, HandOffRequested, LOCK_NOT_AVAILABLE, OwnershipLost, sqlState, StateStoreFailure, StatementFailure } from './run-failures';

export interface BatchedStepOptions {
  client: pg.Client;
  statement: PlannedStatement;
  annotation: BatchAnnotation;
  batched: BatchedStatement;
  ledger: BatchLedger;
  settings: Pick<ExecutionSettings, 'lockRetries' | 'lockRetryBaseMs' | 'lockRetryMaxMs'>;
  /** Before each batch and each retry: records the progress text and caps statement_timeout (throws StateStoreFailure / DeadlineReached). */
  prepare(progress: string): Promise<void>;
  sleep(ms: number): Promise<void>;
  random?(): number;
  /**
   * Asked between batches once this run has committed one, with the longest batch so far: true
   * stops the step with HandOffRequested, for a new executor run to go on (the executor's time
   * is nearly up). A run that has committed no batch yet never hands off, so every run moves
   * the step on.
   */
  handOff?(longestBatchMs: number): boolean;
}

export interface BatchedStepResult {
  rowsDone: number;
  rowsTotal: number;
}

/** Results as PostgreSQL's text: keys go back as parameters exactly as they came. */
const TEXT = { getTypeParser: () => (value: string) => value };

/** The transaction id and status functions: pg_current_xact_id/pg_xact_status from 13, their txid_ forms before. */
async function xactFunctions(client: pg.Client): Promise<{ current: string; status: string }> {
  const v = Number((await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]?.v ?? 0);
  return v >= 130000
    ? { current: 'SELECT pg_catalog.pg_current_xact_id()::text AS x', status: 'SELECT pg_catalog.pg_xact_status($1::xid8) AS s' }
    : { current: 'SELECT pg_catalog.txid_current()::text AS x', status: 'SELECT pg_catalog.txid_status($1::bigint) AS s' };
}

/** A failure is the connection's (the COMMIT's outcome unknown), not the server refusing the statement. */
const connectionLost = (e: unknown): boolean => /^08/.test(sqlState(e)) || sqlState(e) === '57P01';

/**
 * Runs a `-- dbops:batched` statement in batches of ranges of its key: for each, the upper key
 * `size` rows on (none: the rest), then the statement with the range added, in a transaction of
 * its own under the session's lock_timeout, retried with backoff on a lock timeout. Before each
 * COMMIT the ledger records the batch's range and target transaction id; after it, the batch is
 * done. A run that finds a batch pending (its executor was lost) asks the target whether that
 * transaction committed: committed counts as done and the run goes on from its upper key;
 * rolled back is redone. So no batch is repeated and none skipped.
 */
export async function runBatchedStep(o: BatchedStepOptions): Promise<BatchedStepResult> {
  const { client, statement, batched, ledger } = o;
  const idx = statement.index;
  const store = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (e) {
      throw e instanceof OwnershipLost ? e : new StateStoreFailure(e);
    }
  };
  const fail = (e: unknown, rolledBack: boolean, hint: string | null): never => {
    throw new StatementFailure(statement, e, rolledBack, hint);
  };

  const state = await store(() => ledger.load(idx));
  // Checked again on a resumed run: the table may have changed while no executor ran.
  const problem = await batchTargetProblem(client, batched).catch((e: unknown) => fail(e, false, null));
  if (problem)
    fail(
      new ExecutorFault(EXECUTOR_CODES.BATCHING_REFUSED, `Statement ${idx + 1} is marked dbops:batched but cannot run in batches: ${problem}.`),
      false,
      state
        ? 'The batches committed before the executor was lost stay committed (rows_done). Fix the table, then analyze and run the rest of the statement.'
        : 'Nothing of this statement ran. Fix the table or the statement and analyze again, or remove the dbops:batched comment to run it as one transaction.',
    );
  const xact = await xactFunctions(client).catch((e: unknown) => fail(e, false, null));

  let rowsTotal: number;
  let rowsDone = 0;
  let lower: string | null = null;
  let next = 1;
  let finished = false;
  if (!state) {
    const counted = await client.query<{ count: string }>({ text: batched.countSql, types: TEXT }).catch((e: unknown) => fail(e, false, null));
    rowsTotal = Number(counted.rows[0]?.count ?? 0);
    await store(() => ledger.start(idx, rowsTotal));
  } else {
    rowsTotal = state.rowsTotal;
    for (const b of state.batches) {
      next = b.batchNo + 1;
      let done = b.state === 'done';
      if (b.state === 'pending') {
        // The lost executor's sessions are gone (ended before the run resumed): the answer is final.
        const status = (await client.query<{ s: string | null }>(xact.status, [b.xid]).catch((e: unknown) => fail(e, false, null))).rows[0]?.s ?? null;
        if (status === 'in progress')
          fail(
            new ExecutorFault(
              EXECUTOR_CODES.BATCH_UNDECIDED,
              `Batch ${b.batchNo} of statement ${idx + 1} (transaction ${b.xid}) is still in progress on the database, so whether it commits is not known yet.`,
            ),
            false,
            `Wait until SELECT pg_xact_status('${b.xid}') answers committed or aborted, then finish the step by hand (${finishText(batched, b.lower, rowsTotal, rowsDone)}).`,
          );
        if (status === 'committed') {
          await store(() => ledger.done(idx, b.batchNo));
          done = true;
        } else await store(() => ledger.aborted(idx, b.batchNo));
      }
      if (!done) continue;
      rowsDone += b.rows;
      lower = b.upper;
      finished = b.upper === null;
    }
  }

  const summary = `${batched.kind} ${batched.relation} by ${batched.key}`;
  let committedHere = 0;
  let longestBatchMs = 0;
  while (!finished) {
    if (committedHere > 0 && o.handOff?.(longestBatchMs)) throw new HandOffRequested(idx);
    const batchStarted = performance.now();
    let upper: string | null = null;
    let xid = '';
    for (let attempt = 0; ; attempt++) {
      await o
        .prepare(
          `batch ${next} (${rowsDone} of ${rowsTotal} rows done)${attempt > 0 ? ` (lock retry ${attempt} of ${o.settings.lockRetries})` : ''}: ${summary}`,
        )
        .catch((e: unknown) => {
          if (e instanceof StateStoreFailure || e instanceof OwnershipLost) throw e;
          return fail(e, true, progressHint(batched, lower, rowsDone, rowsTotal));
        });
      const bounds = (hasUpper: boolean) => [...(lower === null ? [] : [lower]), ...(hasUpper ? [upper] : [])];
      let committing = false;
      try {
        const found = await client.query<{ k: string }>({ text: batched.upperSql(lower !== null), values: bounds(false), types: TEXT });
        upper = found.rows[0] ? Object.values(found.rows[0])[0]! : null;
        await client.query('BEGIN');
        xid = (await client.query<{ x: string }>(xact.current)).rows[0]!.x;
        const changed = await client.query(batched.batchSql(lower !== null, upper !== null), bounds(upper !== null));
        const batch = { batchNo: next, lower, upper, xid, rows: changed.rowCount ?? 0 };
        await store(() => ledger.pending(idx, batch));
        committing = true;
        await client.query('COMMIT');
        await store(() => ledger.done(idx, next));
        rowsDone += batch.rows;
        committedHere++;
        longestBatchMs = Math.max(longestBatchMs, performance.now() - batchStarted);
        break;
      } catch (e) {
        if (e instanceof OwnershipLost || e instanceof StateStoreFailure) {
          if (!committing) await client.query('ROLLBACK').catch(() => undefined);
          throw e;
        }
        await client.query('ROLLBACK').catch(() => undefined);
        if (sqlState(e) === LOCK_NOT_AVAILABLE && attempt < o.settings.lockRetries) {
          await o.sleep(lockBackoffMs(o.settings, attempt + 1, o.random));
          continue;
        }
        const undecided =
          committing && connectionLost(e)
            ? ` Batch ${next} was being committed in transaction ${xid} when the connection failed: SELECT pg_xact_status('${xid}') says whether it committed; if it did, the rest starts after ${batched.key} = ${upper === null ? 'the last key (the step is complete)' : upper}.`
            : '';
        return fail(e, !committing || !connectionLost(e), `${progressHint(batched, lower, rowsDone, rowsTotal)}${undecided}`);
      }
    }
    next++;
    if (upper === null) finished = true;
    else {
      lower = upper;
      if (o.annotation.pauseMs > 0) await o.sleep(o.annotation.pauseMs);
    }
  }
  return { rowsDone, rowsTotal };
}

const finishText = (b: BatchedStatement, lower: string | null, rowsTotal: number, rowsDone: number): string =>
  `${rowsDone} of ${rowsTotal} rows done; the rest is ${b.remainderSql(lower)}`;

/** What a failed batched step leaves in place, and the SQL that finishes it. */
function progressHint(b: BatchedStatement, lower: string | null, rowsDone: number, rowsTotal: number): string {
  const kept =
    lower === null ? 'No batch of this statement was committed.' : `Batches up to ${b.key} = ${lower} stay committed (${rowsDone} of ${rowsTotal} rows).`;
  return `${kept} To finish the step, analyze and run the rest: ${b.remainderSql(lower)}`;
}
