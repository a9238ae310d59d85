import type { ReportInput } from './report-input';

/** One line per finding, `file:line:column: severity: message [rule]`, as compilers print (editors and CI parse it). */
export function gccReport(input: ReportInput): string {
  const out: string[] = [];
  for (const f of input.files) {
    for (const x of f.findings) {
      const sev = x.severity === 'info' ? 'note' : x.severity;
      out.push(`${f.file}:${x.line}:${x.column}: ${sev}: ${x.message}${x.safer ? ` Safer: ${x.safer}` : ''} [${x.rule}]`);
    }
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
