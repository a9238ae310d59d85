import type { SandboxResult } from '../types';

/**
 * The result of a sandbox run that was stopped before it finished: nothing applied, one failed
 * validation that says why, and no approval token. Both engines answer with it, so a stopped
 * run reads the same whichever engine ran it.
 */
export function stoppedResult(check: 'deadline' | 'sandbox_stopped', detail: string, started: number): SandboxResult {
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
