import type { AnalysisReport, SafePlan } from '../api/types';
import { formatMs } from '../lib/format';
import { lockInfo } from '../lib/lock-modes';
import { compareTimelines } from '../lib/safe-plan';
import { CopyButton, Section } from '../views/common';
import { TimelineChart, TimelineLegend } from './lock-timeline';

/** The plan when it may be offered: proved equivalent in the sandbox (the service offers no other). */
export function offeredPlan(report: AnalysisReport): SafePlan | null {
  return report.safe_plan?.equivalent === true ? report.safe_plan : null;
}

/**
 * The safe plan beside the original (issue #30): why no plan when there is none; otherwise its
 * steps, the proof, both lock timelines on one time scale, and the choice of running it.
 */
export function SafePlanSection({ report, chosen, locked, onUse }: { report: AnalysisReport; chosen: boolean; locked: boolean; onUse: () => void }) {
  const plan = offeredPlan(report);
  if (!plan) {
    const reason = report.safe_plan_reason ?? (report.safe_plan ? `the plan was not proved equivalent: ${report.safe_plan.explanation}` : null);
    if (!reason) return null;
    return (
      <Section title="Safe plan" id="safe-plan">
        <p class="note info" data-testid="safe-plan-reason">
          No safe plan is offered: {reason}
        </p>
      </Section>
    );
  }
  const c = compareTimelines(report.statements, plan);
  return (
    <Section title="Safe plan" id="safe-plan">
      <p class="note ok">
        The migration rewritten so that writes keep flowing, <strong>proved equivalent</strong> in the sandbox: it ends with the same schema and data as the
        original.
      </p>
      <p class="explanation" data-testid="safe-plan-explanation">
        {plan.explanation}
      </p>

      <h4 id="safe-plan-timelines-h">Lock timelines, original and safe plan</h4>
      <p class="muted small">
        Both on one time scale ({formatMs(c.scaleMs)} across). Writes wait behind table locks for {formatMs(c.originalWriteBlockingMs)} in the original and{' '}
        {formatMs(c.planWriteBlockingMs)} in the safe plan.
      </p>
      <div class="grid two compare" role="group" aria-labelledby="safe-plan-timelines-h">
        <div>
          <h5>Original: {formatMs(c.original.totalMs)}</h5>
          <TimelineChart timeline={c.original} label="Original: locks by table" />
        </div>
        <div>
          <h5>Safe plan: {formatMs(c.plan.totalMs)}</h5>
          <TimelineChart timeline={c.plan} label="Safe plan: locks by table" noun="Step" />
        </div>
      </div>
      <TimelineLegend />

      <h4>Steps</h4>
      <ol class="statements" aria-label="Safe plan steps" data-testid="safe-plan-steps">
        {plan.steps.map((s) => (
          <li key={s.index} class="stmt">
            <div class="stmt-head">
              <span class="muted small">Step {s.index}</span>
              <span class="tag">{s.transactional ? 'in its own transaction' : 'outside a transaction'}</span>
              {s.batched && (
                <span class="tag batched" title="Run by the executor in short transactions by key range; progress shows rows done">
                  batched
                </span>
              )}
              <span class="lock">
                {s.lock_type} · {formatMs(s.lock_duration_ms)}
              </span>
            </div>
            <pre class="sql">{s.sql}</pre>
            <p class="small">
              <strong>Lock:</strong> {lockInfo(s.lock_type).blocks}
            </p>
          </li>
        ))}
      </ol>

      <details>
        <summary>The whole script, as it runs</summary>
        <div class="row spread">
          <span class="small muted">The approval token binds exactly this text.</span>
          <CopyButton text={plan.combined_script} label="Copy safe plan script" />
        </div>
        <pre class="sql" tabIndex={0} aria-label="Safe plan script">
          {plan.combined_script}
        </pre>
      </details>

      {!plan.approval_token ? (
        <p class="note warn">The safe plan has no approval token, so it cannot be run from here: analyze the migration again.</p>
      ) : chosen ? (
        <p class="note info" role="status">
          The safe plan is chosen: approve and run it below.
        </p>
      ) : locked ? (
        <p class="small muted">The original migration was submitted from this report; analyze again to run the safe plan instead.</p>
      ) : (
        <div class="row">
          <button type="button" onClick={onUse}>
            Use the safe plan
          </button>
          <span class="small muted">Runs the plan instead of the original, through the approval below.</span>
        </div>
      )}
    </Section>
  );
}
