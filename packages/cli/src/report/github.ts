import type { ReportInput } from './report-input';
import { summaryLine } from './report-input';

// Workflow-command escaping (the runner's toCommandValue/escapeProperty rules).
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** GitHub Actions annotations (`::error file=...,line=...::message`), one per finding, plus the summary line. */
export function githubReport(input: ReportInput): string {
  const out: string[] = [];
  for (const f of input.files) {
    for (const x of f.findings) {
      const props = [
        `file=${escapeProperty(f.file)}`,
        `line=${x.line}`,
        `endLine=${Math.max(x.line, x.end_line)}`,
        `col=${x.column}`,
        `title=${escapeProperty(`dbops ${x.rule}`)}`,
      ].join(',');
      out.push(`::${COMMAND[x.severity]} ${props}::${escapeData(x.safer ? `${x.message}\nSafer: ${x.safer}` : x.message)}`);
    }
  }
  out.push(summaryLine(input));
  return `${out.join('\n')}\n`;
}
