import type { AnalysisReport } from '../api/types';
import { CopyButton, Section } from '../views/common';

export function Rollback({
  plan,
  nonTransactional,
}: {
  plan: AnalysisReport['rollback_plan'];
  nonTransactional: AnalysisReport['non_transactional_statements'];
}) {
  return (
    <Section title="Rollback" id="rollback">
      {plan.has_irreversible && <p class="note warn">Some steps cannot be reversed automatically: data they remove is gone once the migration runs.</p>}
      {plan.verified === true && <p class="note">Verified in the sandbox: {plan.verification}</p>}
      {plan.verified === false && <p class="note warn">Not verified in the sandbox: {plan.verification}</p>}
      <div class="row spread">
        <h4>Rollback script</h4>
        <CopyButton text={plan.combined_script} label="Copy rollback script" />
      </div>
      <pre class="sql" tabIndex={0} aria-label="Rollback script">
        {plan.combined_script}
      </pre>
      <ul class="small">
        {plan.steps
          .filter((s) => !s.reversible || s.warning)
          .map((s) => (
            <li key={s.statement_index}>
              Statement {s.statement_index}: {s.reversible ? '' : 'irreversible. '}
              {s.warning}
            </li>
          ))}
      </ul>
      <h4>Non-transactional statements</h4>
      {nonTransactional.length === 0 ? (
        <p class="muted small">None: the whole migration runs in one transaction.</p>
      ) : (
        <ul>
          {nonTransactional.map((n) => (
            <li key={n.statement_index}>
              Statement {n.statement_index} <strong>{n.statement_type}</strong>: {n.reason}
              <pre class="sql">{n.sql}</pre>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
