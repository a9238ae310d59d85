import { userSchema } from './schema-filter';

/** Row of {@link rulesQuery}. */
export interface RuleRow {
  oid: number;
  table_schema: string;
  table: string;
  name: string;
  definition: string;
}

/** Rewrite rules, without the `_RETURN` rule that makes a view. */
export const rulesQuery = (): string =>
  `SELECT r.oid::int8 AS oid, n.nspname AS table_schema, c.relname AS table, r.rulename AS name, pg_get_ruledef(r.oid) AS definition
   FROM pg_rewrite r
   JOIN pg_class c ON c.oid = r.ev_class
   JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE r.rulename <> '_RETURN' AND ${userSchema('n')}
   ORDER BY n.nspname, c.relname, r.rulename`;
