/** The migration analysis report of spec section 2 and its parts. */

export type RiskCategory = 'low' | 'medium' | 'high' | 'critical';

/** PostgreSQL table-level lock modes (explicit-locking chapter), plus "NONE" for statements that lock no table. */
export type LockMode =
  'ACCESS SHARE' | 'ROW SHARE' | 'ROW EXCLUSIVE' | 'SHARE UPDATE EXCLUSIVE' | 'SHARE' | 'SHARE ROW EXCLUSIVE' | 'EXCLUSIVE' | 'ACCESS EXCLUSIVE' | 'NONE';

export interface AffectedTable {
  table: string;
  impact: 'direct' | 'cascade';
  /** Table names from the directly affected table to this one; null for `direct`. */
  cascade_path: string[] | null;
}

export interface RollbackStep {
  statement_index: number;
  sql: string;
  reversible: boolean;
  warning: string | null;
}

export interface RollbackPlan {
  steps: RollbackStep[];
  combined_script: string;
  has_irreversible: boolean;
  /**
   * Whether the sandbox ran `combined_script` on the migrated clone and got back the clone as it
   * was before (every object, and the row counts of the tables the plan claims to restore):
   * null when that proof could not run (no sandbox, or the migration did not apply).
   */
  verified: boolean | null;
  /** What the proof found, in words: the differences when `verified` is false, why it did not run when null. */
  verification: string;
}

/**
 * One lint finding as data (issue #17). `rule` is a stable kebab-case id documented in
 * `docs/rules/<rule>.md`; `location` is where the statement starts in the analyzed SQL (1-based,
 * leading comments skipped). The report's `warnings` strings are derived from these.
 */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  statement_index: number;
  message: string;
  safer: string | null;
  location: { line: number; column: number };
}

export interface StatementReport {
  index: number;
  sql: string;
  statement_type: string;
  table: string;
  lock_type: LockMode;
  lock_duration_ms: number;
  risk_score: number;
  risk_category: RiskCategory;
  affected_tables: AffectedTable[];
  rollback: RollbackStep;
  warnings: string[];
}

export interface Citation {
  document_filename: string;
  excerpt: string;
  relevance: number;
}

export interface BusinessNarrative {
  summary: string;
  affected_processes: string[];
  citations: Citation[];
  schema_only: boolean;
}

/**
 * One foreign-key chain reached from a directly modified table (documented shape, the spec
 * leaves it open): `root` is the modified table, `path` the tables in order from the root,
 * `via` the constraint names linking consecutive tables, `action` what PostgreSQL does at the
 * last hop (`cascade`, `set_null`, `set_default`, `restrict`, `no_action`), `depth` = hops.
 */
export interface ImpactChain {
  statement_index: number;
  root: string;
  path: string[];
  via: string[];
  action: string;
  depth: number;
  description: string;
}

export interface ValidationResult {
  check: string;
  passed: boolean;
  detail: string;
}

export interface SandboxResult {
  passed: boolean;
  migration_applied: boolean;
  migration_error: string | null;
  tables_created: number;
  rows_inserted: number;
  validation_results: ValidationResult[];
  duration_ms: number;
  /**
   * The clone's end state, when the run was asked for it (`captureEndState`): internal to the
   * analysis (the proof of a safe plan), never part of a report.
   */
  end_state?: SandboxEndState;
}

/** What a proof asks of the end state beyond the defaults (`captureEndState`). */
export interface EndStateRequest {
  /**
   * Columns (`schema.table.column`) whose values are left out of their table's checksum, which
   * counts their non-null values instead: a volatile DEFAULT's values differ between any two runs.
   */
  volatileColumns?: readonly string[];
}

/** A sandbox clone after the migration: its schema fingerprint and a checksum of each table's rows. */
export interface SandboxEndState {
  /** `[kind name, definition]` pairs of `schema-compare`'s fingerprint. */
  schema: Array<[string, string]>;
  /**
   * `schema.table` -> md5 of its rows (synthetic rows, so small), each row as jsonb so that the
   * checksum does not depend on the order of the columns; with `volatileColumns` left out of it
   * and their non-null counts appended.
   */
  rows: Record<string, string>;
}

export interface NonTransactionalStatement {
  statement_index: number;
  statement_type: string;
  sql: string;
  reason: string;
}

/**
 * One step of a safe plan: one transaction (`transactional`), or one statement that PostgreSQL
 * runs outside any transaction block (CONCURRENTLY). `batched` steps are split by the executor
 * into short transactions by key range.
 */
export interface SafePlanStep {
  index: number;
  sql: string;
  transactional: boolean;
  lock_type: LockMode;
  /** How long the step holds `lock_type`, ms (for a CONCURRENTLY build: the build, which does not block writes). */
  lock_duration_ms: number;
  batched: boolean;
}

/**
 * A risky migration rewritten so writes keep flowing: offered only when the sandbox ran the
 * original and the plan on two clones and found the same schema and data (`equivalent`).
 */
export interface SafePlan {
  steps: SafePlanStep[];
  /** The plan as one script, byte for byte what `POST /migrations/execute` takes with `approval_token`. */
  combined_script: string;
  approval_token: string | null;
  equivalent: boolean;
  /** What was rewritten and why, and what the proof compared. */
  explanation: string;
}

export interface AnalysisReport {
  connection_id: string;
  total_statements: number;
  risk_score: number;
  risk_category: RiskCategory;
  statements: StatementReport[];
  affected_tables: AffectedTable[];
  rollback_plan: RollbackPlan;
  warnings: string[];
  /** The structured form of the statements' lint warnings, in the same order. */
  findings: Finding[];
  business_narrative: BusinessNarrative;
  impact_chains: ImpactChain[];
  sandbox_result: SandboxResult;
  approval_token: string | null;
  non_transactional_statements: NonTransactionalStatement[];
  context_used: boolean;
  /** The migration rewritten so writes keep flowing, proved equivalent in the sandbox (see safe-plan/), or null. */
  safe_plan: SafePlan | null;
  /** Why there is no safe plan although the migration blocks writes for long; null otherwise. */
  safe_plan_reason: string | null;
}
