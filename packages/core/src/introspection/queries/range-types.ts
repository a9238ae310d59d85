import { ownObject, userSchema } from './schema-filter';

/** Row of {@link rangeTypesQuery}. */
export interface RangeTypeRow {
  oid: number;
  schema: string;
  name: string;
  subtype: string;
  opclass_schema: string | null;
  opclass_name: string | null;
  collation_schema: string | null;
  collation_name: string | null;
  canonical: string | null;
  subtype_diff: string | null;
  multirange_schema: string | null;
  multirange_name: string | null;
}

/**
 * Range types with their subtype and, when not the defaults, operator class, collation,
 * canonical and subtype_diff functions and multirange type name (PostgreSQL 14+; its default is
 * the range's name with "range" replaced by "multirange", else "_multirange" appended). The
 * multirange column is read through to_jsonb so the query also runs on PostgreSQL 13.
 */
export const rangeTypesQuery = (): string =>
  `SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name, format_type(r.rngsubtype, NULL) AS subtype,
     CASE WHEN NOT oc.opcdefault THEN ocn.nspname END AS opclass_schema, CASE WHEN NOT oc.opcdefault THEN oc.opcname END AS opclass_name,
     cn.nspname AS collation_schema, co.collname AS collation_name,
     NULLIF(r.rngcanonical, 0)::regproc::text AS canonical, NULLIF(r.rngsubdiff, 0)::regproc::text AS subtype_diff,
     mn.nspname AS multirange_schema, m.typname AS multirange_name
   FROM pg_type t
   JOIN pg_namespace n ON n.oid = t.typnamespace
   JOIN pg_range r ON r.rngtypid = t.oid
   JOIN pg_type st ON st.oid = r.rngsubtype
   LEFT JOIN pg_opclass oc ON oc.oid = r.rngsubopc
   LEFT JOIN pg_namespace ocn ON ocn.oid = oc.opcnamespace
   LEFT JOIN pg_collation co ON co.oid = r.rngcollation AND r.rngcollation <> st.typcollation
   LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace
   LEFT JOIN pg_type m ON m.oid = (to_jsonb(r) ->> 'rngmultitypid')::oid
     AND m.typname <> CASE WHEN t.typname LIKE '%range%' THEN regexp_replace(t.typname, 'range', 'multirange') ELSE t.typname || '_multirange' END
   LEFT JOIN pg_namespace mn ON mn.oid = m.typnamespace
   WHERE t.typtype = 'r' AND ${userSchema('n')} AND ${ownObject('pg_type', 't.oid')}
   ORDER BY n.nspname, t.typname`;
