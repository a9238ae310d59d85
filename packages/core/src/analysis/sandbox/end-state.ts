import { quoteIdent, quoteLiteral } from '../../pg/quote';
import { readSchemaFingerprint } from '../schema-compare/schema-compare';
import type { EndStateRequest, SandboxEndState } from '../types';
import type { SandboxSession } from './sandbox-session';

/**
 * The clone's schema fingerprint and, for each ordinary or partitioned table of the user's
 * schemas, an md5 of its rows in a stable order: equal end states mean two scripts left the same
 * schema and the same data behind. Each row is read as jsonb, whose keys are the column names in
 * a fixed order, so the checksum does not change when only the order of the columns does (an
 * expand/contract swap moves a column last; the schema comparison says so). The columns of
 * `request.volatileColumns` are left out of the checksum and their non-null values counted.
 */
export async function readEndState(session: SandboxSession, request: EndStateRequest = {}): Promise<SandboxEndState> {
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
    const volatile = (request.volatileColumns ?? []).filter((c) => c.startsWith(`${t.name}.`)).map((c) => c.slice(t.name.length + 1));
    const without = volatile.length ? ` - ARRAY[${volatile.map(quoteLiteral).join(', ')}]::text[]` : '';
    const counts = volatile.map((c) => ` || ${quoteLiteral(` ${c}:`)} || count(x.${quoteIdent(c)})`).join('');
    const [r] = (
      await session.query<{ h: string }>(
        `SELECT md5(coalesce(string_agg((to_jsonb(x)${without})::text, E'\\n' ORDER BY (to_jsonb(x)${without})::text), ''))${counts} AS h FROM ${t.sql} x`,
      )
    ).rows;
    rows[t.name] = r?.h ?? '';
  }
  return { schema, rows };
}
