import type { ParsedStatement } from '../parse-statements';
import type { SchemaIndex } from '../schema-index';
import type { StatementFacts } from '../statement-facts';

/** What a lint rule sees of one statement and the statements before it. */
export interface RuleContext {
  stmt: ParsedStatement;
  facts: StatementFacts;
  schema: SchemaIndex;
  /** Earlier statements of the same migration, in order. */
  previous: readonly { stmt: ParsedStatement; facts: StatementFacts }[];
  /** Later statements (for rules that look ahead, e.g. an index created after a foreign key). */
  following: readonly { stmt: ParsedStatement; facts: StatementFacts }[];
  /** Inside an explicit BEGIN ... COMMIT block of the migration. */
  inTransaction: boolean;
  lockDurationMs: number;
  /** Row count above which a table counts as large. */
  largeTableRows: number;
  /** Size in bytes above which a table counts as large. */
  largeTableBytes: number;
}

/** A lint rule: a stable kebab-case name, a one-line doc and a check returning warning texts. */
export interface Rule {
  name: string;
  doc: string;
  /**
   * Statement node kinds (e.g. `AlterTableStmt`) the rule can report on; omitted means every
   * statement. The analyzer skips the rule for other kinds, so `check` must return [] for them.
   */
  kinds?: readonly string[];
  check(ctx: RuleContext): string[];
}

/** Formats a finding as `[rule] problem. Safer: alternative`. */
export const finding = (rule: string, problem: string, safer?: string): string => `[${rule}] ${problem}${safer ? ` Safer: ${safer}` : ''}`;

/** The table exists in the live schema (so real traffic uses it). */
export const isExisting = (ctx: RuleContext, table = ctx.facts.table): boolean => !!table && !!ctx.schema.table(table);
