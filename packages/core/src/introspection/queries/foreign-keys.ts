import { conkeyNames } from './constraints';
import { userSchema } from './schema-filter';

/** Row of {@link foreignKeysQuery}; actions are `pg_constraint` letters. */
export interface ForeignKeyRow {
  table_oid: number;
  name: string;
  columns: string[];
  referenced_schema: string;
  referenced_table: string;
  referenced_columns: string[];
  on_delete: 'a' | 'r' | 'c' | 'n' | 'd';
  on_update: 'a' | 'r' | 'c' | 'n' | 'd';
  validated: boolean;
  definition: string;
  oid: number;
}

/**
 * Foreign keys with their referenced table (in any schema) and ON DELETE/UPDATE actions.
 * The per-partition copies PostgreSQL creates for a partitioned table's key are left out.
 */
export const foreignKeysQuery = (): string =>
  `SELECT con.conrelid::int8 AS table_oid, con.conname AS name,
     ${conkeyNames('conkey', 'conrelid')} AS columns,
     rn.nspname AS referenced_schema, r.relname AS referenced_table,
     ${conkeyNames('confkey', 'confrelid')} AS referenced_columns,
     con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update,
     con.convalidated AS validated, pg_get_constraintdef(con.oid, true) AS definition,
     con.oid::int8 AS oid
   FROM pg_constraint con
   JOIN pg_class c ON c.oid = con.conrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_class r ON r.oid = con.confrelid
   JOIN pg_namespace rn ON rn.oid = r.relnamespace
   WHERE con.contype = 'f' AND con.conparentid = 0 AND ${userSchema('n')}
   ORDER BY con.conrelid, con.conname`;
