import type { AnalysisReport, RawFinding } from '../api/types';

/** A finding as the console shows it, whatever the report's exact field names. */
export interface Finding {
  rule: string | null;
  severity: string;
  message: string;
  statementIndex: number | null;
  saferAlternative: string | null;
  /** "line 3, column 5" in the analyzed SQL, when the finding says where. */
  location: string | null;
}

const str = (f: RawFinding, ...keys: string[]): string | null => {
  for (const k of keys) {
    const v = f[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
};

const num = (f: RawFinding, ...keys: string[]): number | null => {
  for (const k of keys) {
    const v = f[k];
    if (typeof v === 'number' && Number.isInteger(v)) return v;
  }
  return null;
};

function alternative(f: RawFinding): string | null {
  const direct = str(f, 'safer', 'safer_alternative', 'safe_alternative', 'alternative', 'suggestion', 'fix', 'help');
  if (direct) return direct;
  const nested = f.safer ?? f.safer_alternative ?? f.alternative ?? f.fix;
  if (nested && typeof nested === 'object') {
    const n = nested as RawFinding;
    const parts = [str(n, 'description', 'explanation', 'summary'), str(n, 'sql', 'example')].filter((p): p is string => p !== null);
    return parts.length > 0 ? parts.join('\n') : null;
  }
  return null;
}

function location(f: RawFinding): string | null {
  const l = f.location;
  if (!l || typeof l !== 'object') return null;
  const { line, column } = l as RawFinding;
  if (typeof line !== 'number') return null;
  return typeof column === 'number' ? `line ${line}, column ${column}` : `line ${line}`;
}

/**
 * The report's structured `findings` (issue #17: `{rule, severity, statement_index, message,
 * safer, location: {line, column}}`) when present; otherwise its warnings (the whole
 * migration's and each statement's), so older reports still show what they flag.
 */
export function findingsOf(report: AnalysisReport): { source: 'findings' | 'warnings'; items: Finding[] } {
  if (Array.isArray(report.findings)) {
    return {
      source: 'findings',
      items: report.findings.map((f) => ({
        rule: str(f, 'rule', 'rule_id', 'code', 'id'),
        severity: str(f, 'severity', 'level') ?? 'warning',
        message: str(f, 'message', 'title', 'description') ?? JSON.stringify(f),
        statementIndex: num(f, 'statement_index', 'statement'),
        saferAlternative: alternative(f),
        location: location(f),
      })),
    };
  }
  // The migration-level list repeats each statement's warnings as "Statement N: ..."; show those once.
  const seen = new Set<string>();
  const items: Finding[] = [];
  for (const s of report.statements) {
    for (const w of s.warnings) {
      seen.add(`Statement ${s.index}: ${w}`);
      seen.add(w);
      items.push({ rule: null, severity: 'warning', message: w, statementIndex: s.index, saferAlternative: null, location: null });
    }
  }
  for (const w of report.warnings) {
    if (!seen.has(w)) items.push({ rule: null, severity: 'warning', message: w, statementIndex: null, saferAlternative: null, location: null });
  }
  return { source: 'warnings', items };
}
