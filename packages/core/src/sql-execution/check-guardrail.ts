import { AppError } from '../errors/app-error';
import type { Classification } from './classify-statement';
import { type Finding, type GuardrailLevel, isAllowed, requiredLevel, type StatementKind, worseKind } from './guardrail';

const KIND_NAMES: Record<StatementKind, string> = {
  select: 'SELECT (read-only)',
  dml: 'DML (data change)',
  ddl: 'DDL (schema change)',
  other: 'a statement outside the SELECT/DML/DDL matrix',
};

/**
 * GUARDRAIL_VIOLATION (403) naming the statement kind, the offending construct, the level that
 * blocks it and the level that would allow it (none for `other`).
 */
export function guardrailViolation(kind: StatementKind, what: string, level: GuardrailLevel): AppError {
  const needed = requiredLevel(kind);
  const hint = needed ? `it needs guardrail "${needed}"` : 'no guardrail level allows it for agent callers; run it as caller "human"';
  return new AppError('GUARDRAIL_VIOLATION', `Blocked by guardrail "${level}": ${what} is ${KIND_NAMES[kind]}; ${hint}.`, {
    details: { statement_kind: kind, statement: what, guardrail: level, required_guardrail: needed },
  });
}

/** Throws GUARDRAIL_VIOLATION for the worst finding the level does not allow. */
export function enforceGuardrail(c: Pick<Classification, 'findings'>, extra: Finding[], level: GuardrailLevel): void {
  const all = [...c.findings, ...extra];
  let worst: Finding | undefined;
  for (const f of all) {
    if (isAllowed(f.kind, level)) continue;
    if (!worst || worseKind(worst.kind, f.kind) !== worst.kind) worst = f;
  }
  if (worst) throw guardrailViolation(worst.kind, worst.what, level);
}

/** Several statements in one agent request: blocked at every level (one statement per request). */
export const multipleStatements = (count: number, level: GuardrailLevel): AppError =>
  guardrailViolation('other', `a request with ${count} statements (agents may send one statement per request)`, level);
