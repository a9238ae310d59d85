import { readSchemaFingerprint } from '../schema-compare/schema-compare';
import type { SandboxEndState } from '../types';
import type { SandboxSession } from './sandbox-session';

/**
 * The clone's schema fingerprint and, for each ordinary or partitioned table of the user's
 * schemas, an md5 of its rows as text in a stable order: equal end states mean two scripts left
 * the same schema and the same data behind.
 */
export async function readEndState(session: SandboxSession): Promise<SandboxEndState> {
  const schema = [...(await readSchemaFingerprint((sql) => session.query<{ kind: string; name: string; def: string }>(sql)))];
  const tables = await session.query<{ name: string; sql: string }>(
    `SELECT n.nspname || '.' || c.relname AS name, format('%I.%I', n.nspname, c.relname) AS sql
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
      ORDER BY 1`,
  );
  const rows: Record<string, string> = {};
  for (const t of tables.rows) {
    const [r] = (await session.query<{ h: string }>(`SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS h FROM ${t.sql} x`)).rows;
    rows[t.name] = r?.h ?? '';
  }
  return { schema, rows };
}
