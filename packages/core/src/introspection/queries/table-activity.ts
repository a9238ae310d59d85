/** Row of {@link tableActivityQuery}. */
export interface TableActivityRow {
  table_oid: number;
  /** `n_live_tup`: rows the statistics collector counts now (0 on a standby, which does not count). */
  live_rows: string;
}

/** Live row counts of the user's tables (`pg_stat_user_tables`), next to `reltuples`, which is -1 until a table is analyzed. */
export const tableActivityQuery = (): string => `SELECT relid::int8 AS table_oid, n_live_tup::text AS live_rows FROM pg_stat_user_tables`;
