import type { ReportInput } from './report-input';
import { totals } from './report-input';

/** The whole run as one JSON document: every file with its findings (and analysis), plus totals. */
export function jsonReport(input: ReportInput): string {
  return `${jsonDocument(input)}\n`;
}

/** {@link jsonReport}'s text handed to `write` without its final newline added to it (which would copy the whole document once more). */
export function writeJsonReport(input: ReportInput, write: (text: string) => void): void {
  write(jsonDocument(input));
  write('\n');
}

function jsonDocument(input: ReportInput): string {
  const t = totals(input);
  const summary = { errors: t.errors, warnings: t.warnings, notes: t.infos, files: t.files, files_with_findings: t.filesWithFindings };
  return JSON.stringify({ tool: 'dbops', version: input.version, command: input.command, files: input.files, summary }, null, 2);
}
