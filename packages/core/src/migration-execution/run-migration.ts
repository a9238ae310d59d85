import { parseTreeSync } from '../pg/parser';
import { quoteName } from '../pg/quote';
import type pg from 'pg';
import { pgQueryable } from '../store/pg-store';
import type { Queryable } from '../store/store';
import { type CatalogState, diffCatalog, newInvalidIndexes, readCatalog } from './catalog-diff';
import { type ExecutionSettings, lockBackoffMs } from './execution-settings';
import { type BatchLedger, memoryBatchLedger } from './batch-ledger';
import type { BatchAnnotation } from './batched-annotation';
import { type BatchedStatement, batchedStatement } from './batched-statement';
import { type PlannedStatement, segmentPlan, statementSummary } from './migration-plan';
import { type AppliedStatement, EXECUTOR_CODES, type MigrationError, type MigrationResult } from './migration-outcome';
import { expandContractLeftovers } from './plan-leftovers';
import { runBatchedStep } from './run-batched-step';
import { DEADLOCK_DETECTED, DeadlineReached, LOCK_NOT_AVAILABLE, messageOf, sqlState, StateStoreFailure, StatementFailure } from './run-failures';

export type RunOutcome = { status: 'completed'; result: MigrationResult } | { status: 'failed'; error: MigrationError };

export interface RunMigrationOptions {
  /** A connected client to the user's database, used for this run only. */
  client: pg.Client;
  plan: readonly PlannedStatement[];
  settings: Pick<ExecutionSettings, 'lockTimeoutMs' | 'statementTimeoutMs' | 'lockRetries' | 'lockRetryBaseMs' | 'lockRetryMaxMs'>;
  /** Called before each statement (and each retry) with the progress text. */
  onProgress(text: string, statementIndex: number): Promise<void>;
  /** Called whenever statements become durably applied (commit, or a non-transactional statement). */
  onApplied?(statementIndexes: number[]): Promise<void>;
  sleep?(ms: number): Promise<void>;
  random?(): number;
  /** Monotonic milliseconds, for execution_time_ms. */
  nowMs?(): number;
  /**
   * Time left to the executor (Lambda's getRemainingTimeInMillis). Each statement's
   * statement_timeout is capped so it ends before the executor is killed, and no statement
   * starts without a minimum budget: the run then fails cleanly (rolled back) instead.
   */
  remainingMs?(): number;
  /**
   * A batched step near the deadline stops between batches (HandOffRequested) instead of failing,
   * for a new executor run to go on: only when something can start that run and the ledger is
   * the state store's.
   */
  canHandOff?: boolean;
  /** Where batched steps record their batches (`batch-ledger.ts`); in memory when absent (nothing can resume the run). */
  ledger?: BatchLedger;
  /**
   * A run resumed after a lost executor: the statements that run had durably applied. Their
   * segments are skipped, and the first segment left must be the batched step the lost run was
   * in (its batches say where to go on); anything else is not resumed.
   */
  resume?: { applied: ReadonlySet<number> };
}

/** Kept back from the executor's remaining time to record the outcome. */
export const DEADLINE_RESERVE_MS = 20_000;
/** A statement is not started with less budget than this. */
const MIN_STATEMENT_BUDGET_MS = 1_000;

/**
 * Runs a planned migration on the user's database: session `lock_timeout` and
 * `statement_timeout`, consecutive transactional statements in one transaction, each
 * non-transactional statement on its own, in script order. A lock timeout is retried with
 * full-jitter backoff (the whole transaction, releasing every lock in between). Reports the
 * schema change as a before/after catalog diff.
 */
export async function runMigration(options: RunMigrationOptions): Promise<RunOutcome> {
  const { client, plan, settings } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const nowMs = options.nowMs ?? (() => performance.now());
  const db = pgQueryable(client);
  const total = plan.length;

  // A batched step that cannot run as it says is refused before anything runs.
  const batchedForms = new Map<number, { annotation: BatchAnnotation; statement: BatchedStatement }>();
  for (const s of plan) {
    if (!s.batched) continue;
    const form = 'error' in s.batched ? s.batched.error : batchedStatement(parseTreeSync(s.sql).stmts[0]!.stmt, s.batched.key, s.batched.size);
    if (typeof form === 'string') return { status: 'failed', error: batchingRefused(s, form) };
    batchedForms.set(s.index, { annotation: s.batched as BatchAnnotation, statement: form });
  }
  const ledger = options.ledger ?? memoryBatchLedger();

  await client.query(`SET lock_timeout = ${Math.round(settings.lockTimeoutMs)}`);
  await client.query(`SET statement_timeout = ${Math.round(settings.statementTimeoutMs)}`);
  const before = await readCatalog(db);

  const appliedNonTx: AppliedStatement[] = [];
  const committedTx: number[] = [];
  const progress = (s: PlannedStatement, attempt: number) =>
    options.onProgress(
      `statement ${s.index + 1} of ${total}: ${statementSummary(s.sql)}${attempt > 0 ? ` (lock retry ${attempt} of ${settings.lockRetries})` : ''}`,
      s.index,
    );

  // Caps statement_timeout to the executor's remaining time before each statement.
  const budget = async (): Promise<void> => {
    if (!options.remainingMs) return;
    const left = options.remainingMs() - DEADLINE_RESERVE_MS;
    if (left < MIN_STATEMENT_BUDGET_MS) throw new DeadlineReached();
    await client.query(`SET statement_timeout = ${Math.round(Math.min(settings.statementTimeoutMs, left))}`);
  };

  const started = nowMs();
  let resuming = options.resume;
  try {
    for (const segment of segmentPlan(plan)) {
      const indexes = segment.statements.map((s) => s.index);
      const batched = segment.statements.length === 1 ? batchedForms.get(indexes[0]!) : undefined;
      if (resuming) {
        if (indexes.every((i) => resuming!.applied.has(i))) {
          if (segment.transactional) committedTx.push(...indexes);
          else appliedNonTx.push(...segment.statements.map((s) => ({ statement_index: s.index, sql: s.sql })));
          continue;
        }
        if (!batched) return { status: 'failed', error: notResumable(segment.statements[0]!, appliedNonTx, committedTx) };
        resuming = undefined;
      }
      if (batched) {
        const s = segment.statements[0]!;
        await runBatchedStep({
          client,
          statement: s,
          annotation: batched.annotation,
          batched: batched.statement,
          ledger,
          settings,
          sleep,
          ...(options.random ? { random: options.random } : {}),
          // Hand off while two of the longest batches still fit, so the next one never meets the deadline.
          ...(options.remainingMs && options.canHandOff
            ? { handOff: (longest: number) => options.remainingMs!() - DEADLINE_RESERVE_MS < Math.max(MIN_STATEMENT_BUDGET_MS, 2 * longest) }
            : {}),
          prepare: async (text) => {
            await options.onProgress(`statement ${s.index + 1} of ${total}: ${text}`, s.index).catch((e: unknown) => {
              throw new StateStoreFailure(e);
            });
            await budget();
          },
        });
        committedTx.push(s.index);
        await options.onApplied?.(indexes);
        continue;
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const prepare = async (s: PlannedStatement) => {
            await progress(s, attempt).catch((e: unknown) => {
              throw new StateStoreFailure(e);
            });
            await budget();
          };
          if (segment.transactional) await runTransaction(client, segment.statements, prepare);
          else await runAlone(client, db, before, segment.statements[0]!, () => prepare(segment.statements[0]!));
          break;
        } catch (error) {
          const code = error instanceof StatementFailure ? sqlState(error.pgError) : null;
          // A deadlock's victim was rolled back whole, like a lock timeout; a step outside a transaction (CONCURRENTLY) may have left something, so it is not retried.
          const retryable = code === LOCK_NOT_AVAILABLE || (code === DEADLOCK_DETECTED && segment.transactional);
          if (!retryable || attempt >= settings.lockRetries) throw error;
          await sleep(lockBackoffMs(settings, attempt + 1, options.random));
        }
      }
      if (segment.transactional) committedTx.push(...indexes);
      else appliedNonTx.push(...segment.statements.map((s) => ({ statement_index: s.index, sql: s.sql })));
      await options.onApplied?.(indexes);
    }
  } catch (error) {
    if (!(error instanceof StatementFailure)) throw error instanceof StateStoreFailure ? error.inner : error;
    const after = await readCatalog(db).catch(() => undefined);
    const invalid = after ? newInvalidIndexes(before, after) : [];
    const code = sqlState(error.pgError);
    const hints: string[] = [];
    if (error.hint) hints.push(error.hint);
    if (code === LOCK_NOT_AVAILABLE) hints.push(`The lock was still unavailable after ${settings.lockRetries} retries; retry when the table is less busy.`);
    if (code === '57014') hints.push('The statement exceeded the statement timeout.');
    if (code === 'EXECUTOR_DEADLINE') hints.push('Split the migration into smaller ones, or raise the executor timeout.');
    if (invalid.length > 0) hints.push(`Drop the INVALID index left behind (DROP INDEX CONCURRENTLY ${invalid.join(', ')}) before retrying.`);
    const leftovers = after ? await expandContractLeftovers(db, before, after).catch(() => null) : null;
    if (leftovers) hints.push(leftovers);
    if (appliedNonTx.length > 0 || committedTx.length > 0)
      hints.push('Some statements stay applied (see applied_non_transactional and committed_transactional); analyze a migration of the remaining statements.');
    return {
      status: 'failed',
      error: {
        code,
        message: messageOf(error.pgError),
        statement_index: error.statement.index,
        applied_non_transactional: appliedNonTx,
        committed_transactional: committedTx,
        rolled_back: error.rolledBack,
        invalid_indexes: invalid,
        hint: hints.length > 0 ? hints.join(' ') : null,
      },
    };
  }
  const elapsed = Math.max(0, Math.round(nowMs() - started));
  const after = await readCatalog(db);
  return { status: 'completed', result: { ...diffCatalog(before, after), execution_time_ms: elapsed } };
}

/** A batched step the executor will not run in batches: refused before any statement runs. */
function batchingRefused(s: PlannedStatement, why: string): MigrationError {
  return {
    code: EXECUTOR_CODES.BATCHING_REFUSED,
    message: `Statement ${s.index + 1} is marked dbops:batched but cannot run in batches: ${why}.`,
    statement_index: s.index,
    applied_non_transactional: [],
    committed_transactional: [],
    rolled_back: false,
    invalid_indexes: [],
    hint: 'Nothing was run. Fix the statement or its dbops:batched comment and analyze again, or remove the comment to run it as one transaction.',
  };
}

/** A resumed run whose first statement to run is not the batched step the lost run was in: its state is not known, so nothing runs. */
function notResumable(s: PlannedStatement, appliedNonTx: AppliedStatement[], committedTx: number[]): MigrationError {
  return {
    code: EXECUTOR_CODES.EXECUTOR_LOST,
    message: `The executor was lost and the run could not be resumed: whether statement ${s.index + 1} ran is not recorded.`,
    statement_index: s.index,
    applied_non_transactional: appliedNonTx,
    committed_transactional: committedTx,
    rolled_back: true,
    invalid_indexes: [],
    hint: 'Check the schema (introspect the connection), then analyze a migration of the statements not applied.',
  };
}

async function runTransaction(client: pg.Client, statements: readonly PlannedStatement[], prepare: (s: PlannedStatement) => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  let current = statements[0]!;
  try {
    for (const s of statements) {
      current = s;
      await prepare(s);
      await client.query(s.sql);
    }
    // A deferred constraint fails at COMMIT: blame the last statement of the transaction.
    current = statements.at(-1)!;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof StateStoreFailure) throw error.inner;
    throw new StatementFailure(current, error, true);
  }
}

async function runAlone(client: pg.Client, db: Queryable, before: CatalogState, s: PlannedStatement, prepare: () => Promise<void>): Promise<void> {
  try {
    await prepare();
    await client.query(s.sql);
  } catch (error) {
    if (error instanceof StateStoreFailure) throw error.inner;
    // A CREATE INDEX CONCURRENTLY that timed out on a lock may leave its INVALID index behind;
    // it is ours (it did not exist before the run), so drop it so that a retry can build it again.
    if (sqlState(error) === LOCK_NOT_AVAILABLE && s.concurrentIndexName) {
      const now = await readCatalog(db).catch(() => undefined);
      for (const name of now ? newInvalidIndexes(before, now) : []) {
        if (name.endsWith(`.${s.concurrentIndexName}`)) {
          const [schema, index] = [name.slice(0, name.lastIndexOf('.')), s.concurrentIndexName];
          await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${quoteName(schema, index)}`).catch(() => undefined);
        }
      }
    }
    throw new StatementFailure(s, error, false);
  }
}
