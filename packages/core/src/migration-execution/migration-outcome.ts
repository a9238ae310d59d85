/** `result` of a completed request (spec section 2). */
export interface MigrationResult {
  tables_added: string[];
  tables_removed: string[];
  columns_added: Array<{ table: string; column: string; type: string }>;
  execution_time_ms: number;
}

/** A statement that is applied for good although the request failed. */
export interface AppliedStatement {
  statement_index: number;
  sql: string;
}

/** `error` of a failed request. */
export interface MigrationError {
  /** SQLSTATE from PostgreSQL (e.g. "42P07", "55P03"), or one of the executor's own codes. */
  code: string;
  message: string;
  /** 0-based index of the failing statement; null when no statement was at fault. */
  statement_index: number | null;
  /** Non-transactional statements that ran before the failure and stay applied. */
  applied_non_transactional: AppliedStatement[];
  /** Transactional statements committed in an earlier transaction of the run (scripts that mix in non-transactional ones). */
  committed_transactional: number[];
  /** True when the failing statement's transaction was rolled back. */
  rolled_back: boolean;
  /** `schema.index` of INVALID indexes the run left behind (failed CREATE INDEX CONCURRENTLY). */
  invalid_indexes: string[];
  /** What to do next, when there is something to say. */
  hint: string | null;
  /** After a lost executor: what the database's catalog showed, which the lists above were rebuilt from (lost-run-reconcile.ts). */
  catalog_check?: CatalogCheck;
}

export type StatementState = 'applied' | 'not_applied' | 'left_invalid' | 'unknown';

export interface StatementCheck {
  statement_index: number;
  state: StatementState;
  evidence: string;
}

/** `error.catalog_check` of a lost request's record. */
export interface CatalogCheck {
  checked_at: string;
  /** Sessions of the lost executor still running on the database, terminated before the look-up. */
  terminated_backends: number;
  statements: StatementCheck[];
  /** Set when the database could not be checked; the record then keeps the executor's counter. */
  error?: string;
}

/** Codes of failures that are not PostgreSQL errors. */
export const EXECUTOR_CODES = {
  /** The executor stopped renewing its lease (process killed, timeout, crash). */
  EXECUTOR_LOST: 'EXECUTOR_LOST',
  /** The request was never picked up by an executor. */
  NOT_STARTED: 'NOT_STARTED',
  /** The user's database could not be reached. */
  CONNECTION_FAILED: 'CONNECTION_FAILED',
  /** Anything else before or around the statements. */
  EXECUTOR_ERROR: 'EXECUTOR_ERROR',
  /** A `-- dbops:batched` statement cannot run in batches (annotation, statement or table); nothing of it ran. */
  BATCHING_REFUSED: 'BATCHING_REFUSED',
  /** A resumed run found a lost run's batch neither committed nor rolled back on the database. */
  BATCH_UNDECIDED: 'BATCH_UNDECIDED',
} as const;

export const emptyFailure = (code: string, message: string, hint: string | null = null): MigrationError => ({
  code,
  message,
  statement_index: null,
  applied_non_transactional: [],
  committed_transactional: [],
  rolled_back: false,
  invalid_indexes: [],
  hint,
});
