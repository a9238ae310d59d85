import type { ReportInput } from './report-input';
import { totals } from './report-input';

/** The whole run as one JSON document: every file with its findings (and analysis), plus totals. */
export function jsonReport(input: ReportInput): string {
  const t = totals(input);
  return `${JSON.stringify({ tool: 'dbops', version: input.version, command: input.command, files: input.files, summary: { errors: t.errors, warnings: t.warnings, notes: t.infos, files: t.files, files_with_findings: t.filesWithFindings } }, null, 2)}\n`;
}
