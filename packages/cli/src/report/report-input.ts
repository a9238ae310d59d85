import type { FileReport } from '../lint/cli-finding';

/** Everything a reporter prints from. */
export interface ReportInput {
  command: 'lint' | 'analyze';
  files: FileReport[];
  version: string;
  /** Rule id -> one-line doc and default severity, for reporters that describe rules (SARIF). */
  rules: ReadonlyMap<string, { doc: string; severity: 'error' | 'warning' | 'info' }>;
}

export interface Totals {
  errors: number;
  warnings: number;
  infos: number;
  filesWithFindings: number;
  files: number;
}

export function totals(input: ReportInput): Totals {
  const t: Totals = { errors: 0, warnings: 0, infos: 0, filesWithFindings: 0, files: input.files.length };
  for (const f of input.files) {
    if (f.findings.length > 0) t.filesWithFindings++;
    for (const x of f.findings) {
      if (x.severity === 'error') t.errors++;
      else if (x.severity === 'warning') t.warnings++;
      else t.infos++;
    }
  }
  return t;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "2 errors, 1 warning in 2 files (3 checked)". */
export function summaryLine(input: ReportInput): string {
  const t = totals(input);
  if (t.errors + t.warnings + t.infos === 0) return `No issues found (${plural(t.files, 'file')} checked).`;
  const parts = [plural(t.errors, 'error'), plural(t.warnings, 'warning')];
  if (t.infos > 0) parts.push(plural(t.infos, 'note'));
  return `${parts.join(', ')} in ${plural(t.filesWithFindings, 'file')} (${plural(t.files, 'file')} checked).`;
}

/** Where a rule's long documentation lives in the repository. */
export const ruleDocPath = (rule: string): string => `docs/rules/${rule}.md`;

/** The statement's first lines, for excerpts. */
export function excerpt(statement: string, maxLines = 6): string[] {
  const lines = statement.split('\n');
  return lines.length <= maxLines ? lines : [...lines.slice(0, maxLines - 1), `... (${lines.length - maxLines + 1} more lines)`];
}
