import type { TableInfo } from '../introspection/schema-snapshot';
import type { HallucinationReport } from './hallucination-check';

/** Tables listed with all their columns in the feedback; beyond that, names only. */
const DETAILED_TABLES = 12;

/**
 * The corrective feedback of the one retry (step 5): which names do not exist and what does,
 * so the model can pick real names instead of guessing again.
 */
export function correctionFeedback(report: HallucinationReport, context: readonly TableInfo[]): string {
  const lines: string[] = [];
  if (report.hallucinated_tables.length > 0) lines.push(`These tables do not exist in the schema: ${report.hallucinated_tables.join(', ')}.`);
  if (report.hallucinated_columns.length > 0) lines.push(`These columns do not exist: ${report.hallucinated_columns.join(', ')}.`);
  lines.push('Use only these tables and columns:');
  context.forEach((t, i) => {
    lines.push(i < DETAILED_TABLES ? `${t.schema}.${t.name}(${t.columns.map((c) => c.name).join(', ')})` : `${t.schema}.${t.name}`);
  });
  return lines.join('\n');
}
