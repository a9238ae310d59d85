import type { ReportInput } from './report-input';
import { excerpt, ruleDocPath, summaryLine } from './report-input';

/** Marks dbops's pull-request comment so a later run can find and replace it. */
export const COMMENT_MARKER = '<!-- dbops-report -->';

const ICON = { error: ':red_circle:', warning: ':warning:', info: ':information_source:' } as const;

/** Markdown for a pull-request comment or a job summary. */
export function markdownReport(input: ReportInput): string {
  const out: string[] = [COMMENT_MARKER, `### dbops ${input.command}`, '', summaryLine(input), ''];
  for (const f of input.files) {
    if (f.findings.length === 0 && !f.analysis) continue;
    out.push(`#### \`${f.file}\``, '');
    if (f.analysis) {
      const a = f.analysis;
      out.push(
        `Risk **${a.risk_score}** (${a.risk_category}); sandbox ${a.sandbox_passed ? 'passed' : `failed${a.sandbox_error ? `: ${a.sandbox_error}` : ''}`}${a.token_path ? '; approval token issued' : ''}.`,
        '',
      );
    }
    for (const x of f.findings) {
      out.push(`- ${ICON[x.severity]} **${x.rule}** (line ${x.line}): ${x.message}`);
      if (x.safer) out.push(`  - Safer: ${x.safer}`);
      out.push('  <details><summary>Statement</summary>', '', '  ```sql', ...excerpt(x.statement, 12).map((l) => `  ${l}`), '  ```', '  </details>');
      out.push(`  - Rule: \`${ruleDocPath(x.rule)}\``);
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
