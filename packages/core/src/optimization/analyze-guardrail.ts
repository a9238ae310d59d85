import { AppError } from '../errors/app-error';
import { blockingFinding, guardrailViolation } from '../sql-execution/check-guardrail';
import type { CatalogQueryable } from '../sql-execution/catalog-queryable';
import { parseSql } from '../sql-execution/parse-sql';
import { statementFindings } from '../sql-execution/statement-findings';

/** Why `analyze=true` ran a plain EXPLAIN instead (the response's `analyze_skipped`). */
export interface AnalyzeSkipped {
  code: 'GUARDRAIL_VIOLATION' | 'HAS_PARAMETERS';
  message: string;
  statement_kind?: string;
  statement?: string;
}

/**
 * The guardrail of the optimizer, the same check as an agent's POST /execute: EXPLAIN ANALYZE
 * runs the statement, and a rolled-back transaction does not undo what a function does through
 * another session, a file or a signal. So, for any caller, ANALYZE only for what the strict
 * agent level allows; anything else gets a plain EXPLAIN and `analyze_skipped`. A statement
 * that reaches something no level allows, or a non-read behind a STABLE/IMMUTABLE label (the
 * planner may run it while planning), is refused outright: even planning it is unsafe.
 */
export async function guardAnalyze(
  db: CatalogQueryable,
  sql: string,
  options: { analyze: boolean; allowOpaque: boolean; serverVersionNum: number },
): Promise<AnalyzeSkipped | null> {
  const [statement] = await parseSql(sql);
  if (!statement) throw new AppError('SQL_PARSE_ERROR', 'The SQL holds no statement');
  const findings = await statementFindings(db, statement, options.serverVersionNum);
  const unplannable = findings.find((f) => f.kind === 'other' || (f.foldable && f.kind !== 'select' && !(f.opaque && options.allowOpaque)));
  if (unplannable) {
    const e = guardrailViolation(unplannable.kind, unplannable.what, 'strict', unplannable.opaque);
    throw new AppError('GUARDRAIL_VIOLATION', `Not optimized: even planning the statement could run it. ${e.message}`, { details: e.details });
  }
  if (!options.analyze) return null;
  const blocking = blockingFinding(findings, 'strict', options.allowOpaque);
  if (!blocking) return null;
  const e = guardrailViolation(blocking.kind, blocking.what, 'strict', blocking.opaque);
  return {
    code: 'GUARDRAIL_VIOLATION',
    message: `EXPLAIN ANALYZE runs the statement, which only the strict guardrail's reads may do: ${e.message} A plain EXPLAIN was run instead.`,
    statement_kind: blocking.kind,
    statement: blocking.what,
  };
}
