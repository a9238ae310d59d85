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
export function guardrailViolation(kind: StatementKind, what: string, level: GuardrailLevel, opaque = false): AppError {
  const needed = requiredLevel(kind);
  const hint = needed ? `it needs guardrail "${needed}"` : 'no guardrail level allows it for agent callers; run it as caller "human"';
  const kindName = opaque ? 'an opaque function (effects cannot be read; treated as DDL)' : KIND_NAMES[kind];
  const opaqueHint = opaque ? ', or an API key whose policy allows opaque functions' : '';
  return new AppError('GUARDRAIL_VIOLATION', `Blocked by guardrail "${level}": ${what} is ${kindName}; ${hint}${opaqueHint}.`, {
    details: { statement_kind: kind, statement: what, guardrail: level, required_guardrail: needed, ...(opaque ? { opaque: true } : {}) },
  });
}

/** The worst finding the level does not allow (opaque functions pass when `allowOpaque`), or undefined. */
export function blockingFinding(findings: readonly Finding[], level: GuardrailLevel, allowOpaque = false): Finding | undefined {
  let worst: Finding | undefined;
  for (const f of findings) {
    if (isAllowed(f.kind, level) || (f.opaque && allowOpaque)) continue;
    if (!worst || worseKind(worst.kind, f.kind) !== worst.kind) worst = f;
  }
  return worst;
}

/** Throws GUARDRAIL_VIOLATION for the worst finding the level does not allow. */
export function enforceGuardrail(c: Pick<Classification, 'findings'>, extra: Finding[], level: GuardrailLevel, allowOpaque = false): void {
  const worst = blockingFinding([...c.findings, ...extra], level, allowOpaque);
  if (worst) throw guardrailViolation(worst.kind, worst.what, level, worst.opaque);
}

/** Several statements in one agent request: blocked at every level (one statement per request). */
export const multipleStatements = (count: number, level: GuardrailLevel): AppError =>
  guardrailViolation('other', `a request with ${count} statements (agents may send one statement per request)`, level);
