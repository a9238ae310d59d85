import type { SandboxResult } from '../api/types';
import { formatMs } from '../lib/format';
import { Section } from '../views/common';

export function Sandbox({ result }: { result: SandboxResult }) {
  return (
    <Section title="Sandbox validation" id="sandbox">
      <p>
        <span class={`badge ${result.passed ? 'low' : 'critical'}`}>{result.passed ? 'passed' : 'failed'}</span>{' '}
        {result.migration_applied ? 'Migration applied' : 'Migration not applied'} to a throwaway clone ({result.tables_created} tables, {result.rows_inserted}{' '}
        synthetic rows) in {formatMs(result.duration_ms)}.
      </p>
      {result.migration_error && (
        <p class="note error">
          <strong>Sandbox error:</strong> {result.migration_error}
        </p>
      )}
      <ul class="checks">
        {result.validation_results.map((v, i) => (
          <li key={i} class={v.passed ? 'pass' : 'fail'}>
            <span aria-hidden="true">{v.passed ? '✓' : '✗'}</span>
            <span class="sr-only">{v.passed ? 'passed' : 'failed'}</span> <strong>{v.check}</strong> <span class="small">{v.detail}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
