import { userSchema } from './schema-filter';

/** Row of {@link indexesQuery}. */
export interface IndexRow {
  table_oid: number;
  name: string;
  definition: string;
  columns: string[];
  is_unique: boolean;
  is_primary: boolean;
  is_valid: boolean;
  method: string;
  predicate: string | null;
  size_bytes: string;
  oid: number;
}

/**
 * Indexes with definition, key columns, validity, method, predicate and size. Plain key
 * columns are read from pg_attribute; only expression keys pay for pg_get_indexdef.
 */
export const indexesQuery = (): string =>
  `SELECT x.indrelid::int8 AS table_oid, i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition,
     ARRAY(SELECT CASE WHEN k.attnum = 0 THEN pg_get_indexdef(x.indexrelid, k.ord::int, true) ELSE att.attname::text END
             FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
             LEFT JOIN pg_attribute att ON att.attrelid = x.indrelid AND att.attnum = k.attnum
            WHERE k.ord <= x.indnkeyatts ORDER BY k.ord) AS columns,
     x.indisunique AS is_unique, x.indisprimary AS is_primary, x.indisvalid AS is_valid,
     am.amname AS method, pg_get_expr(x.indpred, x.indrelid, true) AS predicate,
     pg_relation_size(x.indexrelid)::text AS size_bytes, x.indexrelid::int8 AS oid
   FROM pg_index x
   JOIN pg_class i ON i.oid = x.indexrelid
   JOIN pg_class c ON c.oid = x.indrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_am am ON am.oid = i.relam
   WHERE ${userSchema('n')}
   ORDER BY x.indrelid, i.relname`;
