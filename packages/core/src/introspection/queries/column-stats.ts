import { userSchema } from './schema-filter';

/** Row of {@link columnStatsQuery}. */
export interface ColumnStatsRow {
  table_oid: number;
  column: string;
  null_frac: number;
  /** Up to {@link MAX_VALUES} most common values, as text, each cut to {@link MAX_CHARS} characters. */
  common: string[] | null;
  /** Up to {@link MAX_VALUES} histogram bounds spread over the histogram, as text, cut alike. */
  bounds: string[] | null;
}

/** Values kept per column and list: enough for synthetic rows to follow the data, small in the snapshot. */
export const MAX_VALUES = 5;
/** Characters kept per value. */
export const MAX_CHARS = 48;

/**
 * The live data's shape per column from `pg_stats` (what ANALYZE saw; only columns the role may
 * read): the share of NULLs, a few most common values and histogram bounds, all as text, so the
 * sandbox's synthetic rows look like the data (a text column holding numbers gets numbers, a
 * status column its real statuses). A value that does not fit in {@link MAX_CHARS} is left out
 * rather than cut, since a cut value may no longer satisfy the column's checks.
 */
export const columnStatsQuery = (): string =>
  `SELECT c.oid::int8 AS table_oid, s.attname AS column, s.null_frac::float8 AS null_frac,
     ARRAY(SELECT v FROM unnest(s.most_common_vals::text::text[]) WITH ORDINALITY u(v, k)
           WHERE k <= ${MAX_VALUES} AND length(v) <= ${MAX_CHARS} ORDER BY k) AS common,
     ARRAY(SELECT v FROM (SELECT v, k, count(*) OVER () AS n FROM unnest(s.histogram_bounds::text::text[]) WITH ORDINALITY u(v, k)) h
           WHERE length(v) <= ${MAX_CHARS} AND (k = 1 OR k = n OR (k - 1) % greatest(1, (n - 1) / ${MAX_VALUES - 1}) = 0)
           ORDER BY k LIMIT ${MAX_VALUES}) AS bounds
   FROM pg_stats s
   JOIN pg_namespace n ON n.nspname = s.schemaname
   JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename
   WHERE ${userSchema('n')} AND NOT s.inherited AND c.relkind IN ('r', 'p')`;
