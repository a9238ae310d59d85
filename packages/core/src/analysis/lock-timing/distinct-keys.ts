import { type FeatureClient, optionalQuery } from './live-table';

/**
 * Distinct values among `total` rows, from a sample of `n` rows that held `d` distinct values,
 * `once` of them a single time: the Haas-Stokes Duj1 estimator ANALYZE uses for `n_distinct`.
 * Every sampled value repeated: the values seen; every one seen once: a value a row.
 */
export function duj1Distinct(n: number, d: number, once: number, total: number): number {
  if (n <= 0 || d <= 0) return 0;
  if (total <= n) return d;
  const denominator = n - once + (once * n) / total;
  const estimate = denominator > 0 ? (n * d) / denominator : total;
  return Math.min(total, Math.max(d, estimate));
}

/** A sample's rows grouped by a key: the rows, the distinct keys among them, and those seen once. */
export interface KeyCounts {
  rows: number;
  distinct: number;
  once: number;
}

/**
 * Groups the rows of `from` (a sampled table, with its WHERE) by `keys` on the target, READ ONLY.
 * The keys must have passed the live-expression gate (they are evaluated). Null when it failed.
 */
export async function sampledKeyCounts(client: FeatureClient, from: string, keys: readonly string[]): Promise<KeyCounts | null> {
  const rows = await optionalQuery(
    client,
    `SELECT coalesce(sum(g.n), 0)::float8 AS rows, count(*)::float8 AS distinct, (count(*) FILTER (WHERE g.n = 1))::float8 AS once
       FROM (SELECT count(*) AS n FROM ${from} GROUP BY ${keys.join(', ')}) g`,
  );
  const r = rows?.[0] as { rows?: number; distinct?: number; once?: number } | undefined;
  return r && typeof r.rows === 'number' ? { rows: r.rows, distinct: Number(r.distinct), once: Number(r.once) } : null;
}
