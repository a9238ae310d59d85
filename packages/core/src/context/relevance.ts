/** Weight of query similarity against table-name similarity when both are given. */
export const QUERY_WEIGHT = 0.7;

/** Share of the score reserved for naming a requested table; at 0.5 a naming chunk always wins. */
export const MENTION_STEP = 0.5;

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * The relevance of one chunk in [0, 1], rounded to 4 places.
 * - similarity = 0.7 x cos(query) + 0.3 x cos(table names) when both are given, else the one given;
 * - without table names: relevance = similarity;
 * - with table names: relevance = 0.5 x similarity + (0.5 if the chunk names a requested table).
 * Similarities are clamped to [0, 1], so any chunk naming a table scores at least 0.5 and any
 * chunk that does not scores at most 0.5.
 */
export function combinedRelevance(input: { queryGiven: boolean; tablesGiven: boolean; simQuery: number; simTables: number; mentionsTable: boolean }): number {
  const q = clamp01(input.simQuery);
  const t = clamp01(input.simTables);
  const similarity = input.queryGiven && input.tablesGiven ? QUERY_WEIGHT * q + (1 - QUERY_WEIGHT) * t : input.queryGiven ? q : t;
  const score = input.tablesGiven ? (1 - MENTION_STEP) * similarity + (input.mentionsTable ? MENTION_STEP : 0) : similarity;
  return Math.round(score * 10_000) / 10_000;
}
