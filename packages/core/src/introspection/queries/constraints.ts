import { userSchema } from './schema-filter';

/** Row of {@link constraintsQuery}. */
export interface ConstraintRow {
  table_oid: number;
  name: string;
  contype: 'p' | 'u' | 'c' | 'x';
  columns: string[];
  definition: string;
  validated: boolean;
  oid: number;
  is_local: boolean;
}

/** `conkey` as column names in key order (the constraint alias must be `con`). */
export const conkeyNames = (keyColumn: 'conkey' | 'confkey', relColumn: 'conrelid' | 'confrelid'): string =>
  `ARRAY(SELECT att.attname::text FROM unnest(con.${keyColumn}) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute att ON att.attrelid = con.${relColumn} AND att.attnum = k.attnum ORDER BY k.ord)`;

/**
 * Primary key, unique, check and exclusion constraints on relations. Constraints a partition
 * inherits from its partitioned parent are left out: the parent's entry describes them.
 */
export const constraintsQuery = (): string =>
  `SELECT con.conrelid::int8 AS table_oid, con.conname AS name, con.contype::text AS contype,
     ${conkeyNames('conkey', 'conrelid')} AS columns,
     pg_get_constraintdef(con.oid, true) AS definition, con.convalidated AS validated,
     con.oid::int8 AS oid, con.conislocal AS is_local
   FROM pg_constraint con
   JOIN pg_class c ON c.oid = con.conrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE con.contype IN ('p', 'u', 'c', 'x') AND ${userSchema('n')}
   ORDER BY con.conrelid, con.conname`;
