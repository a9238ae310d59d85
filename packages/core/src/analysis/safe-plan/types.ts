import type { SafePlanStep } from '../types';

export type { SafePlan, SafePlanStep } from '../types';

/** A step before numbering: SQL without a trailing semicolon. */
export type DraftStep = Omit<SafePlanStep, 'index'>;

/** What one rule makes of one risky statement. */
export interface Rewrite {
  steps: DraftStep[];
  /** One sentence: the pattern applied. */
  explanation: string;
  /** Tables (`schema.table`) whose column order the plan changes (an expand/contract swap puts the swapped column last). */
  reordered?: string[];
  /**
   * Columns (`schema.table.column`) whose values the plan computes at another time than the
   * original (a volatile DEFAULT evaluated by the backfill): the proof compares their non-null
   * counts, not their values.
   */
  volatile?: string[];
  /** Indexes of later statements of the migration this rewrite also carries out (they are not run again). */
  absorbs?: number[];
}
