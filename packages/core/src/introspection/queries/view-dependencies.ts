import { userSchema } from './schema-filter';

/** Row of {@link viewDependenciesQuery}. */
export interface ViewDependencyRow {
  view: string;
  table: string;
  columns: string[];
}

/**
 * Which views and materialized views read which relations and columns, from the rewrite
 * rules' dependencies (`pg_depend`), the same source DROP ... CASCADE uses.
 */
export const viewDependenciesQuery = (): string =>
  `SELECT vn.nspname || '.' || v.relname AS view, tn.nspname || '.' || t.relname AS table,
     COALESCE(array_agg(DISTINCT a.attname::text ORDER BY a.attname::text) FILTER (WHERE a.attname IS NOT NULL), '{}') AS columns
   FROM pg_depend d
   JOIN pg_rewrite r ON r.oid = d.objid
   JOIN pg_class v ON v.oid = r.ev_class
   JOIN pg_namespace vn ON vn.oid = v.relnamespace
   JOIN pg_class t ON t.oid = d.refobjid
   JOIN pg_namespace tn ON tn.oid = t.relnamespace
   LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
   WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
     AND v.oid <> t.oid AND v.relkind IN ('v', 'm') AND ${userSchema('vn')}
   GROUP BY 1, 2
   ORDER BY 1, 2`;
