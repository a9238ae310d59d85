import { userSchema } from './schema-filter';

/** Row of {@link relationSizesQuery}; sizes may exceed 2^31, so they come as text. */
export interface RelationSizeRow {
  table_oid: number;
  /** Null when the relation was dropped while the query ran. */
  total_bytes: string | null;
  /** `pg_relation_size`: the heap alone. 0 means the table holds no row at all, analyzed or not. */
  heap_bytes: string | null;
}

/**
 * `pg_total_relation_size` of every relation with storage (tables, partitioned tables,
 * materialized views; views and foreign tables have none and count as 0). Apart from the
 * tables query because it is the costliest catalog read: it opens every table, TOAST table and
 * index, so it runs beside the other reads, with the indexes (whose relcache entries it builds).
 */
export const relationSizesQuery = (): string =>
  `SELECT c.oid::int8 AS table_oid, pg_total_relation_size(c.oid)::text AS total_bytes, pg_relation_size(c.oid)::text AS heap_bytes
   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'm') AND ${userSchema('n')}`;
