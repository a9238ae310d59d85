import type { AnalysisReport } from '../api/types';

/** A finding as the console shows it. */
export interface FindingView {
  rule: string;
  severity: string;
  message: string;
  statementIndex: number;
  saferAlternative: string | null;
  /** "line 3, column 5" in the analyzed SQL. */
  location: string;
}

/** The report's structured findings (`{rule, severity, statement_index, message, safer, location}`), ready to show. */
export function findingsOf(report: AnalysisReport): FindingView[] {
  return report.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    message: f.message,
    statementIndex: f.statement_index,
    saferAlternative: f.safer,
    location: `line ${f.location.line}, column ${f.location.column}`,
  }));
}
