import { columnRefFields, unwrapCasts } from './ast-sql';
import type { IndexKey } from './index-candidate';
import { parseTree } from '../pg/index';

/** A plan's `Sort Key` entries (e.g. `o.created_at DESC`) as index keys of one alias, or null when they span several. */
export async function sortKeysFor(sortKey: string[] | undefined, alias: string): Promise<IndexKey[] | null> {
  if (!sortKey?.length) return null;
  const out: IndexKey[] = [];
  for (const entry of sortKey) {
    let sortBy: { node: unknown; sortby_dir?: string } | undefined;
    try {
      const parsed = await parseTree(`SELECT 1 ORDER BY ${entry}`);
      sortBy = (parsed.stmts[0]!.stmt.SelectStmt as { sortClause: Array<{ SortBy: typeof sortBy }> }).sortClause[0]!.SortBy;
    } catch {
      return null;
    }
    const fields = columnRefFields(unwrapCasts(sortBy?.node));
    if (!fields) return null;
    const owner = fields.length >= 2 ? fields[fields.length - 2] : alias;
    if (owner !== alias) return null;
    out.push({ column: fields[fields.length - 1]!, isExpression: false, descending: sortBy?.sortby_dir === 'SORTBY_DESC' });
  }
  return out;
}
