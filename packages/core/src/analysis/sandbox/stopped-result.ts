import type { SandboxResult } from '../types';

/**
 * The result of a sandbox run that was stopped before it finished: nothing applied, one failed
 * validation that says why, and no approval token. Both engines answer with it, so a stopped
 * run reads the same whichever engine ran it.
 */
export function stoppedResult(check: 'deadline' | 'sandbox_stopped' | 'memory_limit', detail: string, started: number): SandboxResult {
  return {
    passed: false,
    migration_applied: false,
    migration_error: detail,
    tables_created: 0,
    rows_inserted: 0,
    validation_results: [{ check, passed: false, detail }],
    duration_ms: Date.now() - started,
  };
}

/** A run stopped at its hard deadline. */
export const deadlineResult = (deadlineMs: number, started: number): SandboxResult =>
  stoppedResult(
    'deadline',
    `The sandbox did not finish within ${Math.round(deadlineMs / 1000)} s and was stopped: a statement runs without end (an endless loop, a runaway recursive query) or takes too long on the sandbox's rows. No approval token is issued.`,
    started,
  );

/** A run whose session crossed the sandbox's memory bound and was ended (embedded engine). */
export const memoryLimitResult = (why: string, started: number): SandboxResult =>
  stoppedResult('memory_limit', `The sandbox stopped the migration: ${why}. No approval token is issued.`, started);

/**
 * Time a run gets beyond its apply budget, for the clone (or a copy of the cached one) and the
 * validations. With the 10 s budget the hard deadline is 25 s: inside the gateway's 30 s window
 * with room for the snapshot, the preflight and the answer, so a run stopped at its deadline
 * still answers `deadline` rather than the gateway's timeout (it was 30 s, a 40 s deadline).
 */
export const CLONE_ALLOWANCE_MS = 15_000;

/** The hard deadline of a run whose apply budget is `budgetMs` when none is set. */
export const defaultDeadlineMs = (budgetMs: number): number => budgetMs + CLONE_ALLOWANCE_MS;
