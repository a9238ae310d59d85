import { ownObject, userSchema } from './schema-filter';

/** Row of {@link domainsQuery}. */
export interface DomainRow {
  oid: number;
  schema: string;
  name: string;
  base_type: string;
  collation_schema: string | null;
  collation_name: string | null;
  default_expr: string | null;
  not_null: boolean;
  constraints: Array<{ oid: number; name: string; definition: string; validated: boolean }> | null;
}

/** Domains with base type, collation (when not the base type's), default, NOT NULL and their CHECK constraints. */
export const domainsQuery = (): string =>
  `SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name, format_type(t.typbasetype, t.typtypmod) AS base_type,
     cn.nspname AS collation_schema, co.collname AS collation_name,
     t.typdefault AS default_expr, t.typnotnull AS not_null,
     (SELECT json_agg(json_build_object('oid', con.oid::int8, 'name', con.conname, 'definition', pg_get_constraintdef(con.oid, true), 'validated', con.convalidated) ORDER BY con.conname)
        FROM pg_constraint con WHERE con.contypid = t.oid AND con.contype = 'c') AS constraints
   FROM pg_type t
   JOIN pg_namespace n ON n.oid = t.typnamespace
   JOIN pg_type b ON b.oid = t.typbasetype
   LEFT JOIN pg_collation co ON co.oid = t.typcollation AND t.typcollation <> b.typcollation
   LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace
   WHERE t.typtype = 'd' AND ${userSchema('n')} AND ${ownObject('pg_type', 't.oid')}
   ORDER BY n.nspname, t.typname`;
