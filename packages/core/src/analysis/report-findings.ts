import type { StatementAnalysis } from './analyze-statements';
import type { StatementFindings } from './rule-pass';
import { findingText } from './rules/rule';
import type { Finding } from './types';

/**
 * The report's `findings` and the spec's `warnings` strings derived from them: one
 * `Statement N: [rule] ... Safer: ...` text per finding, a finding repeated within its statement
 * kept once.
 */
export function reportFindings(items: readonly StatementAnalysis[]): { findings: Finding[]; warnings: string[] } {
  const perStatement: StatementFindings[] = [];
  for (const item of items) perStatement.push({ findings: item.findings, warnings: item.report.warnings });
  return collectFindings(perStatement);
}

/**
 * {@link reportFindings} from the rules' output alone. (Offline lint keeps the same findings
 * without the warnings, and writes a finding's text only where a statement has several:
 * `distinctFindings` in rules/lint-offline.ts.)
 */
function collectFindings(perStatement: readonly StatementFindings[]): { findings: Finding[]; warnings: string[] } {
  const findings: Finding[] = [];
  const warnings: string[] = [];
  for (const item of perStatement) {
    const first = warnings.length;
    // The statement's warnings are its findings' texts, in the same order: not formatted twice.
    const texts = item.warnings;
    for (let i = 0; i < item.findings.length; i++) {
      const f = item.findings[i]!;
      // Each text starts with its statement's own "Statement N:", so duplicates can only come from the same statement.
      const text = `Statement ${f.statement_index}: ${texts[i] ?? findingText(f)}`;
      if (warnings.includes(text, first)) continue;
      warnings.push(text);
      findings.push(f);
    }
  }
  return { findings, warnings };
}
