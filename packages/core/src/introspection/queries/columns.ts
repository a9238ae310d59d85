import { SNAPSHOT_RELKINDS, userSchema } from './schema-filter';

/** Row of {@link columnsQuery}. */
export interface ColumnRow {
  table_oid: number;
  name: string;
  ordinal: number;
  data_type: string;
  udt_name: string;
  not_null: boolean;
  default_expr: string | null;
  identity: '' | 'a' | 'd';
  generated: '' | 's' | 'v';
  comment: string | null;
  /**
   * What DDL needs beyond the usual, null for nearly every column: the collation (schema and
   * name) when not the type's default, is_local false for a column only inherited, the
   * statistics target when set, the storage when not the type's.
   */
  extra: {
    collation_schema: string | null;
    collation_name: string | null;
    is_local: boolean;
    statistics: number | null;
    storage: 'p' | 'e' | 'm' | 'x' | null;
  } | null;
}

/**
 * Live columns of every snapshot relation, with type, nullability, default, identity and
 * comment. Comments come from a join rather than col_description(), one lookup per column.
 *
 * A default cannot reference columns, so it is deparsed without its relation (relid 0, as the
 * pg_get_expr documentation allows for Var-free expressions; the text is the same): with the
 * relation, every call opens the table to name its columns, which in the fresh backend of an
 * introspection builds a relcache entry per table (~40 ms of server time for 1,000 tables).
 * Generation expressions do reference columns and keep the relation.
 */
export const columnsQuery = (): string =>
  `SELECT a.attrelid::int8 AS table_oid, a.attname AS name, a.attnum::int4 AS ordinal,
     format_type(a.atttypid, a.atttypmod) AS data_type, t.typname AS udt_name,
     a.attnotnull AS not_null,
     pg_get_expr(d.adbin, CASE WHEN a.attgenerated = '' THEN 0 ELSE d.adrelid END) AS default_expr,
     a.attidentity::text AS identity, a.attgenerated::text AS generated,
     ds.description AS comment,
     CASE WHEN a.attcollation <> t.typcollation OR NOT a.attislocal OR COALESCE(a.attstattarget, -1) <> -1 OR a.attstorage <> t.typstorage THEN
       (SELECT json_build_object('collation_schema', cn.nspname, 'collation_name', co.collname, 'is_local', a.attislocal,
                 'statistics', NULLIF(a.attstattarget, -1), 'storage', NULLIF(a.attstorage, t.typstorage))
          FROM (SELECT 1) one LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> t.typcollation
          LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace) END AS extra
   FROM pg_attribute a
   JOIN pg_class c ON c.oid = a.attrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_type t ON t.oid = a.atttypid
   LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   LEFT JOIN pg_description ds ON ds.objoid = a.attrelid AND ds.classoid = 'pg_class'::regclass AND ds.objsubid = a.attnum
   WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ${SNAPSHOT_RELKINDS} AND ${userSchema('n')}
   ORDER BY a.attrelid, a.attnum`;
