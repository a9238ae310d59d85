import type { LockMode } from '../types';

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

/** A step before numbering: SQL without a trailing semicolon. */
export type DraftStep = Omit<SafePlanStep, 'index'>;

/** What one rule makes of one risky statement. */
export interface Rewrite {
  steps: DraftStep[];
  /** One sentence: the pattern applied. */
  explanation: string;
}
