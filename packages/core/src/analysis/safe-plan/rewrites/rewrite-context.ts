import type { TableInfo } from '../../../introspection/schema-snapshot';
import type { AstNode } from '../../ast';
import type { ParsedStatement } from '../../parse-statements';
import type { SchemaIndex } from '../../schema-index';
import type { StatementFacts } from '../../statement-facts';
import type { StatementReport } from '../../types';
import type { Rewrite } from '../types';

/** What a rule sees of one risky statement. */
export interface RewriteContext {
  stmt: ParsedStatement;
  facts: StatementFacts;
  report: StatementReport;
  /** The statement's table as the snapshot knows it (before the migration). */
  table: TableInfo | undefined;
  /** The whole snapshot (triggers, rules, routines, other tables). */
  schema: SchemaIndex;
  /** What a batched step is offered with (`DBOPS_SAFE_PLAN_BATCH_SIZE`, `DBOPS_SAFE_PLAN_BATCH_PAUSE_MS`). */
  batching: BatchingOptions;
  /** The whole migration, for a rule that folds following statements into its plan (`Rewrite.absorbs`). */
  script: MigrationScript;
}

/** Every statement of the migration, with its facts and report, by statement index. */
export interface MigrationScript {
  parsed: readonly ParsedStatement[];
  facts: readonly StatementFacts[];
  statements: readonly StatementReport[];
}

/** Rows per batch and the pause between batches of a batched UPDATE/DELETE. */
export interface BatchingOptions {
  size: number;
  pauseMs: number;
}

/**
 * A rule: a statement shape it recognises and the steps it makes of it. `rewrite` returns a
 * string when the shape is recognised but has no safe form here (why), so the report can say so.
 */
export interface RewriteRule {
  name: string;
  applies(ctx: RewriteContext): boolean;
  rewrite(ctx: RewriteContext): Rewrite | string;
}

/** The single ALTER TABLE subcommand of a statement, or null when there are several (or none). */
export function onlySubcommand(ctx: RewriteContext): AstNode | null {
  return ctx.facts.subcommands.length === 1 ? (ctx.facts.subcommands[0] as AstNode) : null;
}

/** Estimated time of a scan or build step, from the original statement's own figure. */
export const scanMs = (ctx: RewriteContext): number => Math.max(1, ctx.report.lock_duration_ms);

/** A catalog-only step under a strong lock: milliseconds once the lock is granted. */
export const CATALOG_MS = 5;
