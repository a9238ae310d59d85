import type { ReportInput } from './report-input';
import { excerpt, ruleDocPath, summaryLine } from './report-input';

const paint =
  (on: boolean) =>
  (code: string, text: string): string =>
    on ? `\x1b[${code}m${text}\x1b[0m` : text;

/** For people: each finding with the statement excerpt, the rule, the reason and the safer alternative. */
export function ttyReport(input: ReportInput, color: boolean): string {
  const c = paint(color);
  const out: string[] = [];
  for (const f of input.files) {
    if (f.analysis) {
      const a = f.analysis;
      out.push(
        `${c('1', f.file)}: risk ${a.risk_score} (${a.risk_category}), sandbox ${a.sandbox_passed ? c('32', 'passed') : c('31', `failed${a.sandbox_error ? `: ${a.sandbox_error}` : ''}`)}${a.token_path ? `, approval token stored in ${a.token_path}` : ', no approval token'}`,
      );
      for (const n of a.notes) out.push(`  note: ${n}`);
    }
    for (const x of f.findings) {
      const sev = x.severity === 'error' ? c('1;31', 'error') : x.severity === 'warning' ? c('1;33', 'warning') : c('1;36', 'note');
      out.push(`${c('1', `${f.file}:${x.line}:${x.column}`)}: ${sev}[${x.rule}] ${x.message}`);
      const lines = excerpt(x.statement);
      const width = String(x.line + lines.length - 1).length;
      lines.forEach((l, i) => out.push(`  ${c('34', `${String(x.line + i).padStart(width)} |`)} ${l}`));
      if (x.safer) out.push(`  ${c('32', 'safer:')} ${x.safer}`);
      out.push(`  ${c('2', `docs: ${ruleDocPath(x.rule)}`)}`);
      out.push('');
    }
  }
  out.push(summaryLine(input));
  return `${out.join('\n')}\n`;
}
