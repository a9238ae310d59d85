import type { AnalysisReport } from '../api/types';
import { Section } from '../views/common';

export function Narrative({ narrative }: { narrative: AnalysisReport['business_narrative'] }) {
  return (
    <Section title="Business impact" id="narrative">
      <p>{narrative.summary}</p>
      {narrative.affected_processes.length > 0 && (
        <>
          <h4>Affected processes</h4>
          <ul>
            {narrative.affected_processes.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </>
      )}
      {narrative.citations.length > 0 ? (
        <>
          <h4>Citations</h4>
          <ul class="citations">
            {narrative.citations.map((c, i) => (
              <li key={i}>
                <blockquote>{c.excerpt}</blockquote>
                <cite>
                  {c.document_filename} · relevance {c.relevance.toFixed(2)}
                </cite>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p class="muted small">
          {narrative.schema_only ? 'From the schema alone: no business document of this connection mentions these tables.' : 'No citation.'}
        </p>
      )}
    </Section>
  );
}
