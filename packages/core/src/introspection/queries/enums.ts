import { userSchema } from './schema-filter';

/** Row of {@link enumsQuery}. */
export interface EnumRow {
  schema: string;
  name: string;
  values: string[];
  oid: number;
}

/** Enum types with their labels in sort order. */
export const enumsQuery = (): string =>
  `SELECT n.nspname AS schema, t.typname AS name,
     ARRAY(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder) AS values, t.oid::int8 AS oid
   FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE t.typtype = 'e' AND ${userSchema('n')}
   ORDER BY n.nspname, t.typname`;
