import { quoteIdent } from '../../pg/quote';
import type { LiveRelation, PreflightSession } from './preflight-session';
import { showValue } from './sensitive-values';

/** How example rows are named in details: by primary key when the table has one, else by ctid. */
export interface RowIdentity {
  /** SQL expression (text) selecting the identity of a row of the scanned table. */
  sql: string;
  /** Renders one selected identity value, e.g. `id = 42` or `ctid (0,3)`. */
  show(value: unknown): string;
}

/** Primary key columns of a live table, in key order ([] without a primary key). */
export async function primaryKeyColumns(session: PreflightSession, rel: LiveRelation): Promise<string[]> {
  const rows = await session.query<{ attname: string }>(
    `SELECT a.attname FROM pg_index i
       CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = $1 AND i.indisprimary ORDER BY k.ord`,
    [rel.oid],
  );
  return rows.map((r) => r.attname);
}

export async function rowIdentity(session: PreflightSession, rel: LiveRelation): Promise<RowIdentity> {
  const pk = await primaryKeyColumns(session, rel);
  if (pk.length === 0) return { sql: 'ctid::text', show: (v) => `ctid ${String(v)}` };
  if (pk.length === 1) return { sql: `${quoteIdent(pk[0]!)}::text`, show: (v) => `${pk[0]} = ${showValue(pk[0]!, v)}` };
  return { sql: `ROW(${pk.map(quoteIdent).join(', ')})::text`, show: (v) => `(${pk.join(', ')}) = ${String(v)}` };
}

/** `1,234,567` for details. */
export const count = (n: number | string | bigint): string => Number(n).toLocaleString('en-US');
