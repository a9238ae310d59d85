import { useCallback, useState } from 'preact/hooks';
import { endpoints } from '../api/endpoints';
import type { AnalysisReport } from '../api/types';
import { useAsync } from '../lib/use-async';
import { BlastRadius } from '../report/blast-radius';
import { ExecutePanel } from '../report/execute-panel';
import { Findings } from '../report/findings';
import { LockTimeline } from '../report/lock-timeline';
import { Narrative } from '../report/narrative';
import { RiskSummary } from '../report/risk-summary';
import { Rollback } from '../report/rollback';
import { offeredPlan, SafePlanSection } from '../report/safe-plan';
import { Sandbox } from '../report/sandbox';
import { Statements } from '../report/statements';
import { ErrorNote } from './common';

interface Analyzed {
  sql: string;
  report: AnalysisReport;
}

const analyze = async (connectionId: string, sql: string): Promise<Analyzed> => ({ sql, report: await endpoints.analyze(connectionId, sql) });

/**
 * Paste or upload SQL, analyze it, review the report, then approve and run it. The SQL that
 * runs is the analyzed text (kept apart from the editor), so editing after the analysis can
 * never run unreviewed SQL: the token would not match anyway.
 */
export function ReviewView({ connectionId }: { connectionId: string }) {
  const [sql, setSql] = useState('');
  const [state, run] = useAsync(analyze);
  const analyzed = state.data?.report.connection_id === connectionId ? state.data : null;
  const stale = analyzed !== null && analyzed.sql !== sql;

  const upload = async (e: Event): Promise<void> => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) setSql(await file.text());
  };

  return (
    <>
      <h1>Migration review</h1>
      <section class="card" aria-labelledby="sql-h">
        <h3 id="sql-h">Migration SQL</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(connectionId, sql);
          }}
          class="stack"
        >
          <label for="migration-sql">Statements, separated by semicolons</label>
          <textarea
            id="migration-sql"
            rows={8}
            spellcheck={false}
            required
            value={sql}
            onInput={(e) => setSql((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <div class="row">
            <label class="file">
              Upload a .sql file <input type="file" accept=".sql,text/plain,text/x-sql" onChange={upload} />
            </label>
            <button type="submit" disabled={state.busy || sql.trim() === ''}>
              {state.busy ? 'Analyzing… (sandbox run)' : 'Analyze'}
            </button>
          </div>
        </form>
        <ErrorNote error={state.error} />
        {stale && (
          <p class="note warn" role="status">
            The SQL changed since this analysis. The report and the approval below are for the analyzed text; analyze again to review the new one.
          </p>
        )}
      </section>
      {/* Keyed by the token: a new analysis starts with the original chosen again. */}
      {analyzed && <Report key={analyzed.report.approval_token ?? analyzed.sql} report={analyzed.report} sql={analyzed.sql} />}
    </>
  );
}

function Report({ report, sql }: { report: AnalysisReport; sql: string }) {
  const [useSafePlan, setUseSafePlan] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const plan = useSafePlan ? offeredPlan(report) : null;
  const choosePlan = (): void => {
    setUseSafePlan(true);
    // The approval moves to the plan: take the reviewer there.
    requestAnimationFrame(() => document.getElementById('execute-h')?.scrollIntoView({ block: 'start' }));
  };
  const markSubmitted = useCallback(() => setSubmitted(true), []);
  return (
    <div class="report" data-testid="report">
      <RiskSummary report={report} />
      <LockTimeline statements={report.statements} />
      <Statements statements={report.statements} />
      <SafePlanSection report={report} chosen={plan !== null} locked={submitted} onUse={choosePlan} />
      <BlastRadius affected={report.affected_tables} chains={report.impact_chains} />
      <Narrative narrative={report.business_narrative} />
      <div class="grid two">
        <Sandbox result={report.sandbox_result} />
        <Findings report={report} />
      </div>
      <Rollback plan={report.rollback_plan} nonTransactional={report.non_transactional_statements} />
      {/* Keyed by the choice: switching between the original and the plan starts a fresh approval. */}
      <ExecutePanel
        key={plan ? 'plan' : 'original'}
        report={report}
        sql={sql}
        plan={plan}
        onUseOriginal={() => setUseSafePlan(false)}
        onSubmitted={markSubmitted}
      />
    </div>
  );
}
