/** Who is calling POST /execute: `human` runs what it is given; `agent` is held to the guardrail matrix. */
export type Caller = 'human' | 'agent';

/** Guardrail levels of the spec (section 4), from tightest to loosest. */
export type GuardrailLevel = 'strict' | 'moderate' | 'permissive';

/**
 * What a statement does, for the guardrail matrix:
 * - `select`: reads only;
 * - `dml`: changes rows (INSERT/UPDATE/DELETE/MERGE, data-modifying WITH, row locks, sequence and advisory-lock functions);
 * - `ddl`: changes the schema, or calls a VOLATILE function whose effects are unknown;
 * - `other`: outside the matrix (transaction and session control, COPY, DO, CALL, LISTEN/NOTIFY,
 *   PREPARE/EXECUTE, LOCK, maintenance, file and server-administration functions, several
 *   statements in one request): never run for agents, at any level.
 */
export type StatementKind = 'select' | 'dml' | 'ddl' | 'other';

export const GUARDRAIL_LEVELS: readonly GuardrailLevel[] = ['strict', 'moderate', 'permissive'];

const KIND_ORDER: Record<StatementKind, number> = { select: 0, dml: 1, ddl: 2, other: 3 };

/** The tightest level that allows a kind; null when no level does. */
export function requiredLevel(kind: StatementKind): GuardrailLevel | null {
  return kind === 'other' ? null : GUARDRAIL_LEVELS[KIND_ORDER[kind]]!;
}

export function isAllowed(kind: StatementKind, level: GuardrailLevel): boolean {
  return kind !== 'other' && KIND_ORDER[kind] <= GUARDRAIL_LEVELS.indexOf(level);
}

export const worseKind = (a: StatementKind, b: StatementKind): StatementKind => (KIND_ORDER[b] > KIND_ORDER[a] ? b : a);

/** One reason a statement has the kind it has, e.g. `{kind: 'dml', what: 'data-modifying WITH (DELETE)'}`. */
export interface Finding {
  kind: StatementKind;
  what: string;
  /**
   * A function whose effects cannot be read (dynamic SQL, a compiled language): `ddl`-level,
   * so refused at strict and moderate unless the API key's policy allows opaque functions.
   */
  opaque?: boolean;
  /**
   * Reached through a function labelled STABLE or IMMUTABLE: the planner may run it while
   * planning, so even a plain EXPLAIN would run it.
   */
  foldable?: boolean;
}
