import { ownObject, userSchema } from './schema-filter';

/** Row of {@link compositeTypesQuery}. */
export interface CompositeTypeRow {
  oid: number;
  schema: string;
  name: string;
  attributes: Array<{ name: string; data_type: string; collation_schema: string | null; collation_name: string | null }> | null;
}

/** Stand-alone composite types (CREATE TYPE ... AS (...)), not the row types of tables. */
export const compositeTypesQuery = (): string =>
  `SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name,
     (SELECT json_agg(json_build_object('name', a.attname, 'data_type', format_type(a.atttypid, a.atttypmod),
                'collation_schema', cn.nspname, 'collation_name', co.collname) ORDER BY a.attnum)
        FROM pg_attribute a
        JOIN pg_type at ON at.oid = a.atttypid
        LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> at.typcollation
        LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace
       WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped) AS attributes
   FROM pg_type t
   JOIN pg_namespace n ON n.oid = t.typnamespace
   JOIN pg_class c ON c.oid = t.typrelid
   WHERE t.typtype = 'c' AND c.relkind = 'c' AND ${userSchema('n')} AND ${ownObject('pg_type', 't.oid')}
   ORDER BY n.nspname, t.typname`;
