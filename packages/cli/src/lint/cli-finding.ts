/** One finding as every reporter sees it, from `dbops lint` or from the service's report. */
export interface CliFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  safer: string | null;
  statement_index: number;
  /** 1-based, in the file. */
  line: number;
  column: number;
  end_line: number;
  /** The statement's text (its excerpt in human reports). */
  statement: string;
}

/** What the service said about a file beyond its findings (`dbops analyze`). */
export interface FileAnalysis {
  risk_score: number;
  risk_category: string;
  sandbox_passed: boolean;
  sandbox_error: string | null;
  /** Where the approval token was stored, or null when the service withheld it. */
  token_path: string | null;
  /** Report-level notes that are not findings (rollback, sandbox). */
  notes: string[];
}

export interface FileReport {
  /** Path as shown to the user: relative to the working directory, `/`-separated. */
  file: string;
  findings: CliFinding[];
  analysis?: FileAnalysis;
}

export const SEVERITY_RANK = { info: 0, warning: 1, error: 2 } as const;

// Comments written above a statement belong to its text; findings point past them.
const LEADING_COMMENTS = /^(?:\s*(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/))*\s*/;

/** A statement's text from its first token (the comments above it left out). */
export const statementBody = (sql: string): string => sql.replace(LEADING_COMMENTS, '');

/** A finding as the analysis reports it, offline (`lintOffline`) or from the service. */
export interface ReportedFinding {
  rule: string;
  severity: CliFinding['severity'];
  message: string;
  safer: string | null;
  statement_index: number;
  location: { line: number; column: number };
}

/** The reporters' finding from an analysis finding, the statement it is on and that statement's last line. */
export const cliFinding = (f: ReportedFinding, statement: string, endLine: number): CliFinding => ({
  rule: f.rule,
  severity: f.severity,
  message: f.message,
  safer: f.safer,
  statement_index: f.statement_index,
  line: f.location.line,
  column: f.location.column,
  end_line: endLine,
  statement,
});
