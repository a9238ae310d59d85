import type { SafePlanStep } from '../types';

export type { SafePlan, SafePlanStep } from '../types';

/** A step before numbering: SQL without a trailing semicolon. */
export type DraftStep = Omit<SafePlanStep, 'index'>;

/** What one rule makes of one risky statement. */
export interface Rewrite {
  steps: DraftStep[];
  /** One sentence: the pattern applied. */
  explanation: string;
}
