import type { MigrationRequest, SafePlan } from '../api/types';
import { progressStatement, stepOfStatement } from '../lib/safe-plan';
import { CopyButton } from '../views/common';

/**
 * A safe plan's run read from its request: the step running now, and after a failure the step
 * that failed, what the run left in place, and the SQL to clean it up or resume (the status's
 * `hint`, which the executor writes from the target's catalog).
 */
export function PlanOutcome({ request, plan }: { request: MigrationRequest; plan: SafePlan }) {
  const total = plan.steps.length;
  if (request.status === 'executing' || request.status === 'pending') {
    const at = progressStatement(request.progress);
    const step = at === null ? null : stepOfStatement(plan, at);
    return step === null ? null : (
      <p data-testid="plan-running-step">
        Running step {step} of {total} (0-based numbering, as in the plan).
      </p>
    );
  }
  const error = request.error;
  if (request.status !== 'failed' || !error) return null;
  const failed = error.statement_index === null ? null : stepOfStatement(plan, error.statement_index);
  const stepOf = (i: number): string => {
    const s = stepOfStatement(plan, i);
    return s === null ? `script statement ${i}` : `step ${s}`;
  };
  const leftInvalid = error.catalog_check?.statements.filter((s) => s.state === 'left_invalid' || s.state === 'unknown') ?? [];
  // The script's leading SET (no step) commits too; it leaves nothing behind, so it is not listed.
  const committed = [...new Set(error.committed_transactional.map((i) => stepOfStatement(plan, i)).filter((i): i is number => i !== null))];
  const leftovers = error.invalid_indexes.length + error.applied_non_transactional.length + committed.length + leftInvalid.length;
  return (
    <div class="plan-failure" data-testid="plan-failure">
      <h4>Where the safe plan stopped</h4>
      {failed !== null ? (
        <p>
          <strong>Step {failed} failed</strong>
          {failed > 0 ? `; steps 0 to ${failed - 1} ran before it and stay applied.` : '; no step ran before it.'}
        </p>
      ) : (
        <p>The failure is not tied to one step of the plan{error.statement_index !== null && ` (script statement ${error.statement_index})`}.</p>
      )}
      {failed !== null && plan.steps[failed] && <pre class="sql">{plan.steps[failed]!.sql}</pre>}
      <h5>Left in place</h5>
      {leftovers === 0 ? (
        <p class="small">Nothing reported beyond the steps above{error.rolled_back ? '; the failing step’s transaction was rolled back' : ''}.</p>
      ) : (
        <ul class="small" data-testid="plan-leftovers">
          {error.invalid_indexes.map((i) => (
            <li key={`i${i}`}>
              INVALID index <code>{i}</code> (a failed concurrent build)
            </li>
          ))}
          {error.applied_non_transactional.map((a) => (
            <li key={`n${a.statement_index}`}>
              {stepOf(a.statement_index)} applied outside a transaction: <code>{a.sql}</code>
            </li>
          ))}
          {committed.length > 0 && <li>committed: {committed.map((i) => `step ${i}`).join(', ')}</li>}
          {leftInvalid.map((s) => (
            <li key={`c${s.statement_index}`}>
              {stepOf(s.statement_index)}: {s.state === 'left_invalid' ? 'left INVALID' : 'state unknown'} ({s.evidence})
            </li>
          ))}
        </ul>
      )}
      {error.hint && (
        <>
          <div class="row spread">
            <h5>Clean up or resume</h5>
            <CopyButton text={error.hint} label="Copy cleanup" />
          </div>
          <pre class="sql" tabIndex={0} aria-label="Cleanup and next step" data-testid="plan-cleanup">
            {error.hint}
          </pre>
        </>
      )}
    </div>
  );
}
