import type { StatementReport } from '../api/types';
import { formatMs } from '../lib/format';
import { lockInfo } from '../lib/lock-modes';
import { Section } from '../views/common';

export function Statements({ statements }: { statements: StatementReport[] }) {
  return (
    <Section title="Statements" id="statements">
      <ol class="statements">
        {statements.map((s) => (
          <li key={s.index} class={`stmt risk-${s.risk_category}`}>
            <div class="stmt-head">
              <span class="muted small">Statement {s.index}</span>
              <span class={`badge ${s.risk_category}`} aria-label={`risk ${s.risk_score}, ${s.risk_category}`}>
                {s.risk_score}
              </span>
              <strong>{s.statement_type}</strong>
              {s.table && <code>{s.table}</code>}
              <span class="lock">
                {s.lock_type} · {formatMs(s.lock_duration_ms)}
              </span>
            </div>
            <pre class="sql">{s.sql}</pre>
            <p class="small">
              <strong>Lock:</strong> {lockInfo(s.lock_type).blocks}
            </p>
            {s.warnings.length > 0 && (
              <ul class="small warnlist">
                {s.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
