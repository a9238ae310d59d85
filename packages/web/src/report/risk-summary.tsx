import type { AnalysisReport } from '../api/types';

const MEANING = {
  low: 'Short locks, no data-loss risk, limited blast radius.',
  medium: 'Moderate lock impact or foreign-key cascade depth.',
  high: 'Destructive operations or a wide blast radius.',
  critical: 'Destructive changes with extensive cascade.',
} as const;

export function RiskSummary({ report }: { report: AnalysisReport }) {
  const direct = report.affected_tables.filter((t) => t.impact === 'direct').length;
  const cascade = report.affected_tables.length - direct;
  return (
    <section class={`card risk risk-${report.risk_category}`} aria-labelledby="risk-h">
      <h2 id="risk-h" class="sr-only">
        Overall risk
      </h2>
      <div class="score" aria-label={`Risk score ${report.risk_score} of 100, ${report.risk_category}`} data-testid="risk-score">
        <span class="big">{report.risk_score}</span>
        <span class="of">/100</span>
      </div>
      <div>
        <p class="category">
          <span class={`badge ${report.risk_category}`}>{report.risk_category}</span> {MEANING[report.risk_category]}
        </p>
        <p class="muted">
          {report.total_statements} statement{report.total_statements === 1 ? '' : 's'} · {direct} table{direct === 1 ? '' : 's'} modified · {cascade} reached
          through foreign keys · sandbox {report.sandbox_result.passed ? 'passed' : 'failed'}
          {report.rollback_plan.has_irreversible ? ' · contains irreversible steps' : ''}
        </p>
      </div>
    </section>
  );
}
