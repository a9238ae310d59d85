import { userSchema } from './schema-filter';

/** Row of {@link indexLinksQuery}. */
export interface IndexLinkRow {
  oid: number;
  /** The partitioned index this one is attached to. */
  parent_schema: string | null;
  parent_name: string | null;
  /** The primary key, unique or exclusion constraint the index backs. */
  constraint_name: string | null;
  clustered: boolean;
  replica_identity: boolean;
}

/**
 * What DDL needs to know of an index beyond its definition: the partitioned index it is
 * attached to, the constraint it backs, CLUSTER ON and REPLICA IDENTITY USING INDEX. Only
 * indexes with one of these. Catalogs only, so it runs with the structure queries, keeping the
 * storage batch (the longer one) as it was.
 */
export const indexLinksQuery = (): string =>
  `SELECT x.indexrelid::int8 AS oid, pin.nspname AS parent_schema, pi.relname AS parent_name, ic.conname AS constraint_name,
     x.indisclustered AS clustered, x.indisreplident AS replica_identity
   FROM pg_index x
   JOIN pg_class c ON c.oid = x.indrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   LEFT JOIN pg_inherits ih ON ih.inhrelid = x.indexrelid
   LEFT JOIN pg_class pi ON pi.oid = ih.inhparent
   LEFT JOIN pg_namespace pin ON pin.oid = pi.relnamespace
   LEFT JOIN pg_constraint ic ON ic.conindid = x.indexrelid AND ic.conrelid = x.indrelid AND ic.contype IN ('p', 'u', 'x')
   WHERE ${userSchema('n')} AND (ih.inhparent IS NOT NULL OR ic.oid IS NOT NULL OR x.indisclustered OR x.indisreplident)`;
