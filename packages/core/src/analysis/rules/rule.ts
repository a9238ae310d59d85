import type { ParsedStatement } from '../parse-statements';
import type { SchemaIndex } from '../schema-index';
import type { StatementFacts } from '../statement-facts';
import { createdBefore } from './migration-answers';

/** What a lint rule sees of one statement and the statements before it. */
export interface RuleContext {
  stmt: ParsedStatement;
  facts: StatementFacts;
  schema: SchemaIndex;
  /** Earlier statements of the same migration, in order. */
  previous: readonly { stmt: ParsedStatement; facts: StatementFacts }[];
  /** Later statements (for rules that look ahead, e.g. an index created after a foreign key). */
  following: readonly { stmt: ParsedStatement; facts: StatementFacts }[];
  /**
   * Every statement of the migration, in order, this one at position `stmt.index` (`previous`
   * and `following` are its two sides). Shared by all statements' contexts: read only.
   */
  statements: readonly { stmt: ParsedStatement; facts: StatementFacts }[];
  /** Inside an explicit BEGIN ... COMMIT block of the migration. */
  inTransaction: boolean;
  lockDurationMs: number;
  /**
   * Offline lint (no snapshot): a table the migration did not create earlier counts as existing,
   * as squawk assumes, so the rules about locking live tables still speak.
   */
  assumeExisting: boolean;
  /** Row count above which a table counts as large. */
  largeTableRows: number;
  /** Size in bytes above which a table counts as large. */
  largeTableBytes: number;
}

/** How bad a finding is: `error` breaks or blocks production, `warning` is risky or a habit to fix, `info` is context. */
export type Severity = 'error' | 'warning' | 'info';

/** What a rule reports: data, so clients can filter, suppress and locate it without parsing text. */
export interface RuleFinding {
  rule: string;
  message: string;
  /** The safer alternative, or null when there is none to give. */
  safer: string | null;
}

/**
 * A lint rule: a stable kebab-case name (squawk's where squawk has the same rule), its severity,
 * a one-line doc (the long form is `docs/rules/<name>.md`) and a check returning findings.
 */
export interface Rule {
  name: string;
  severity: Severity;
  doc: string;
  /** Needs the live schema to mean anything (sizes, catalog): offline lint leaves it out. */
  live?: boolean;
  /**
   * Statement node kinds (e.g. `AlterTableStmt`) the rule can report on; omitted means every
   * statement. The analyzer skips the rule for other kinds, so `check` must find nothing for them.
   */
  kinds?: readonly string[];
  check(ctx: RuleContext): readonly RuleFinding[];
}

/**
 * What a rule returns when it has nothing to say: one shared empty list, so the common case
 * (most rules, most statements) allocates nothing. Read only, like every check's result.
 */
export const NO_FINDINGS: readonly RuleFinding[] = [];

export const finding = (rule: string, message: string, safer?: string): RuleFinding => ({ rule, message, safer: safer ?? null });

/** The warning text of a finding, as the spec's `warnings` carry it: `[rule] problem. Safer: alternative`. */
export const findingText = (f: RuleFinding): string => `[${f.rule}] ${f.message}${f.safer ? ` Safer: ${f.safer}` : ''}`;

/** An earlier statement of this migration created `table` (so no traffic uses it yet). */
export const createdEarlier = (ctx: RuleContext, table: string): boolean => createdBefore(ctx, table);

/**
 * The table exists in the live schema (so real traffic uses it); offline, any table the
 * migration did not create itself.
 */
export const isExisting = (ctx: RuleContext, table = ctx.facts.table): boolean =>
  !!table && (!!ctx.schema.table(table) || (ctx.assumeExisting && !createdEarlier(ctx, table)));
