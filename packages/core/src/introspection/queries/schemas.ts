import { userSchema } from './schema-filter';

/** Row of {@link schemasQuery}. */
export interface SchemaRow {
  name: string;
}

/** Non-system schemas, including empty ones. */
export const schemasQuery = (): string => `SELECT n.nspname AS name FROM pg_namespace n WHERE ${userSchema('n')} ORDER BY n.nspname`;
