import type { FeatureClient, LiveTable } from './live-table';

/**
 * |correlation| at or below which an index's key counts as unordered in the heap. A key the heap
 * follows keeps its ranges together even after updates moved some rows: a serial id whose first
 * tenth was updated shows 0.45, and its last 5 % still sits on the last 5 % of the pages.
 */
const UNORDERED_CORRELATION = 0.2;

/**
 * |correlation| with the heap order of the first key of `index` on `t`, and its distinct values
 * (`pg_stats`: the table's column, or an expression index's own statistics; `n_distinct`
 * negative is a share of the rows), or null when unknown.
 */
export async function indexKeyOrder(client: FeatureClient, t: LiveTable, index: string): Promise<{ corr: number; distinct: number | null } | null> {
  const res = await client.query(
    `SELECT abs(key.correlation)::float8 AS corr, key.n_distinct::float8 AS distinct
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       CROSS JOIN LATERAL (
         -- The table's column first, else an expression index's own statistics.
         SELECT k.correlation, k.n_distinct FROM (
           SELECT s.correlation, s.n_distinct, 0 AS pick FROM pg_attribute a JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = a.attname
            WHERE a.attrelid = c.oid AND a.attnum = i.indkey[0]
           UNION ALL
           SELECT s.correlation, s.n_distinct, 1 FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = ic.relname) k
          WHERE k.correlation IS NOT NULL ORDER BY k.pick LIMIT 1) key
      WHERE i.indrelid = $1 AND ic.relname = $2`,
    [t.oid, index],
  );
  const row = res.rows[0] as { corr?: number | null; distinct?: number | null } | undefined;
  if (typeof row?.corr !== 'number') return null;
  const d = typeof row.distinct === 'number' ? row.distinct : null;
  return { corr: row.corr, distinct: d === null ? null : d < 0 ? -d * t.rows : d };
}

/**
 * Whether the rows an index finds lie together in the heap: above {@link UNORDERED_CORRELATION}
 * for most keys, but the rows of one value of a key with few values (a status, each value a
 * share of the table) lie together only when the heap is sorted by it: four statuses cycling
 * through the heap show 0.24, and each has a row on nearly every page.
 */
export function rowsTogether(order: { corr: number; distinct: number | null } | null, rows: number): boolean {
  if (!order) return true; // unknown order counts as ordered
  const fewValues = order.distinct !== null && order.distinct > 0 && order.distinct <= rows * FEW_VALUES_SHARE;
  return order.corr > (fewValues ? SORTED_CORRELATION : UNORDERED_CORRELATION);
}

/** A key has few values when each holds at least this share of the rows on average. */
const FEW_VALUES_SHARE = 0.001;
/** |correlation| above which a key's values lie in runs: the heap is as good as sorted by it. */
const SORTED_CORRELATION = 0.9;
