import { userSchema } from './schema-filter';

/** Row of {@link policiesQuery}. */
export interface PolicyRow {
  oid: number;
  table_schema: string;
  table: string;
  name: string;
  permissive: boolean;
  command: 'r' | 'a' | 'w' | 'd' | '*';
  roles: string[];
  using_expr: string | null;
  check_expr: string | null;
}

/** Row-level security policies with their roles (`public` for PUBLIC) and expressions. */
export const policiesQuery = (): string =>
  `SELECT pol.oid::int8 AS oid, n.nspname AS table_schema, c.relname AS table, pol.polname AS name,
     pol.polpermissive AS permissive, pol.polcmd::text AS command,
     ARRAY(SELECT CASE WHEN r.role = 0 THEN 'public' ELSE rl.rolname::text END
             FROM unnest(pol.polroles) WITH ORDINALITY r(role, ord) LEFT JOIN pg_roles rl ON rl.oid = r.role ORDER BY r.ord) AS roles,
     pg_get_expr(pol.polqual, pol.polrelid) AS using_expr, pg_get_expr(pol.polwithcheck, pol.polrelid) AS check_expr
   FROM pg_policy pol
   JOIN pg_class c ON c.oid = pol.polrelid
   JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE ${userSchema('n')}
   ORDER BY n.nspname, c.relname, pol.polname`;
