import type { AstNode } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { PreflightSession } from './preflight-session';

/**
 * How one check ended: `failed` means the statement would fail (or break readers) on the live
 * data, `incomplete` that the check could not finish (timeout, lock wait, error), `skipped` that
 * the live rows cannot answer it (no read privilege, the table or column is created or its rows
 * changed earlier in the same migration).
 */
export type PreflightStatus = 'passed' | 'failed' | 'incomplete' | 'skipped';

export interface PreflightFinding {
  /** Check name as it appears in `validation_results`, e.g. `preflight_not_null`. */
  check: string;
  statement_index: number;
  status: PreflightStatus;
  /** One sentence: what was checked, on how many rows, and what was found. */
  detail: string;
  /** True when the check read a sample of the table instead of every row. */
  sampled: boolean;
  /**
   * True when the check did not run because what it would evaluate on the live database did not
   * pass the live-expression gate (`live-expression-gate.ts`): status `skipped`, detail says why.
   */
  unverified: boolean;
  /** Wall time of the check, ms. */
  duration_ms: number;
}

/** What a check's task returns before the runner stamps check name, statement and time. */
export interface TaskOutcome {
  status: PreflightStatus;
  detail: string;
  sampled?: boolean;
  unverified?: boolean;
}

/** One read-only question to ask the live database for one statement. */
export interface PreflightTask {
  check: string;
  statementIndex: number;
  /** Tables (`schema.name`) whose rows the question reads; the runner checks privileges and earlier writes. */
  tables: string[];
  /** Columns (`schema.table.column`) the question needs to exist before the migration. */
  columns?: string[];
  /** Short label used in details, e.g. `SET NOT NULL on public.users.email`. */
  label: string;
  /**
   * Every expression of the migration (or of the live catalog) that {@link run} will evaluate on
   * the target, as SELECTs calling exactly what the evaluation calls: each must pass the
   * live-expression gate before `run` starts. `[]` when `run` evaluates only dbops's own SQL over
   * column values. Read outside any transaction; may read the catalog.
   */
  evaluates(session: PreflightSession): Promise<string[]>;
  run(session: PreflightSession): Promise<TaskOutcome>;
}

/** What a check sees of one statement. */
export interface PreflightContext {
  stmt: ParsedStatement;
  facts: StatementFacts;
  /** ALTER TABLE subcommand bodies, or [] for other statements. */
  subcommands: AstNode[];
  /** Tables and views (`schema.name`) whose definition an earlier statement of the migration changes (DDL): the live catalog no longer describes them at this statement. */
  changedBefore: (table: string) => boolean;
}

/** A preflight check: a stable name and the tasks it derives from a statement (none when it does not apply). */
export interface PreflightCheck {
  name: string;
  doc: string;
  tasks(ctx: PreflightContext): PreflightTask[];
}
