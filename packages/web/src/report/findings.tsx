import type { AnalysisReport } from '../api/types';
import { findingsOf } from '../lib/findings';
import { Section } from '../views/common';

export function Findings({ report }: { report: AnalysisReport }) {
  const items = findingsOf(report);
  return (
    <Section title="Findings" id="findings">
      {items.length === 0 && <p class="muted">Nothing flagged.</p>}
      <ul class="findings">
        {items.map((f, i) => (
          <li key={i} class={`finding ${f.severity}`}>
            <div>
              <span class={`badge sev-${f.severity}`}>{f.severity}</span> <code>{f.rule}</code> <span class="muted small">statement {f.statementIndex}</span>
              <span class="muted small"> · {f.location}</span>
            </div>
            <p>{f.message}</p>
            {f.saferAlternative && (
              <details>
                <summary>Safer alternative</summary>
                <pre class="sql">{f.saferAlternative}</pre>
              </details>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
