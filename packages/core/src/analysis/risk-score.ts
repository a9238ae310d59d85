import { lockRank } from './lock-modes';
import type { Effect } from './statement-facts';
import type { LockMode, RiskCategory } from './types';

/** Spec section 2 thresholds: low 0-24, medium 25-49, high 50-74, critical 75-100. */
export function riskCategory(score: number): RiskCategory {
  if (score >= 75) return 'critical';
  if (score >= 50) return 'high';
  if (score >= 25) return 'medium';
  return 'low';
}

/** Points per data-loss operation. */
export const DESTRUCTIVE_PENALTY: Record<string, number> = {
  'DROP DATABASE': 70,
  'DROP SCHEMA': 55,
  'DROP TABLE': 50,
  TRUNCATE: 50,
  'DELETE without WHERE': 45,
  'DROP COLUMN': 40,
  'UPDATE without WHERE': 35,
  'DROP MATERIALIZED VIEW': 20,
  'DROP TYPE CASCADE': 30,
  'type narrowing': 25,
  DELETE: 10,
};

export interface RiskInputs {
  lock: LockMode;
  effect: Effect;
  /** The locked table exists with data (a table created by the migration holds no traffic). */
  existingTable: boolean;
  durationMs: number;
  destructive: string | null;
  cascadeTables: number;
  cascadeDepth: number;
  indexComplexity: number;
  /** An extra penalty from live-schema findings (e.g. a view depends on a dropped column). */
  extra: number;
}

/**
 * Lock severity (up to 20, halved for catalog-only effects) + lock duration (up to 40, a quarter
 * of it for locks that let reads and writes through) +
 * destructive penalty + foreign-key blast radius (up to 25) + index complexity (up to 8).
 */
export function riskScore(r: RiskInputs): number {
  const severity = r.existingTable ? (lockRank(r.lock) / 8) * 20 * (r.effect === 'catalog' ? 0.5 : 1) : 0;
  const d = r.existingTable ? r.durationMs : 0;
  // A long lock matters in proportion to what it blocks: SHARE UPDATE EXCLUSIVE and weaker let traffic through.
  const blocksTraffic = lockRank(r.lock) >= lockRank('SHARE') ? 1 : 0.25;
  const duration = (d < 100 ? 0 : d < 1_000 ? 8 : d < 10_000 ? 18 : d < 60_000 ? 30 : 40) * blocksTraffic;
  const destructive = r.destructive ? (DESTRUCTIVE_PENALTY[r.destructive] ?? 20) : 0;
  const blast = Math.min(25, r.cascadeTables * 5 + Math.max(0, r.cascadeDepth - 1) * 5);
  const index = Math.min(8, r.indexComplexity);
  return Math.max(0, Math.min(100, Math.round(severity + duration + destructive + blast + index + r.extra)));
}
