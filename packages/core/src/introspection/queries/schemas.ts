import { userSchema } from './schema-filter';

/** Row of {@link schemasQuery}. */
export interface SchemaRow {
  name: string;
  oid: number;
}

/** Non-system schemas, including empty ones. */
export const schemasQuery = (): string => `SELECT n.nspname AS name, n.oid::int8 AS oid FROM pg_namespace n WHERE ${userSchema('n')} ORDER BY n.nspname`;
