import { cloneAst, columnRefFields, stmtToSql, unwrapCasts } from '../ast-sql';
import { ast, type RewriteRule } from './rewrite-context';
import { singleTable } from './resolve-column';
import { hasAggregate, type SelectBody } from './select-levels';

/**
 * `ORDER BY k LIMIT n OFFSET m` -> `WHERE (k) > ($next) ORDER BY k LIMIT n`: the server no
 * longer reads and throws away `m` rows. Only when the ORDER BY columns contain a unique key of
 * NOT NULL columns (so "after the last row" is well defined) and share one direction.
 */
export const offsetToKeysetRule: RewriteRule = async (ctx) => {
  if (ctx.kind !== 'SELECT') return [];
  const copy = cloneAst(ctx.stmt);
  const sel = (copy as { SelectStmt: SelectBody }).SelectStmt;
  if (!sel.limitOffset || !sel.sortClause?.length || sel.groupClause || sel.distinctClause || hasAggregate(sel.targetList)) return [];
  const from = singleTable(sel.fromClause, ctx.catalog);
  if (!from) return [];
  const sortCols: string[] = [];
  const dirs = new Set<string>();
  for (const s of sel.sortClause) {
    const f = columnRefFields(unwrapCasts(s.SortBy.node));
    if (!f || (f.length === 2 && f[0] !== from.alias) || f.length > 2 || (s.SortBy.sortby_nulls && s.SortBy.sortby_nulls !== 'SORTBY_NULLS_DEFAULT')) return [];
    sortCols.push(f[f.length - 1]!);
    dirs.add(s.SortBy.sortby_dir === 'SORTBY_DESC' ? 'desc' : 'asc');
  }
  if (dirs.size !== 1) return [];
  const allNotNull = sortCols.every((c) => from.table.columns.get(c)?.notNull);
  const unique = from.table.indexes.some((ix) => ix.unique && !ix.predicate && ix.columns.every((c) => sortCols.includes(c.replace(/"/g, ''))));
  if (!allNotNull || !unique) return [];
  const first = ctx.paramCount + 1;
  const params = sortCols.map((_, i) => ast.param(first + i));
  const cols = sortCols.map((c) => ast.col(from.alias, c));
  const cmp = ast.op(
    dirs.has('desc') ? '<' : '>',
    cols.length === 1 ? cols[0] : { RowExpr: { args: cols, row_format: 'COERCE_IMPLICIT_CAST' } },
    params.length === 1 ? params[0] : { RowExpr: { args: params, row_format: 'COERCE_IMPLICIT_CAST' } },
  );
  sel.whereClause = sel.whereClause ? ast.and(sel.whereClause, cmp) : cmp;
  delete sel.limitOffset;
  const placeholders = sortCols.map((c, i) => `$${first + i} = last row's ${c}`).join(', ');
  return [
    {
      rule: 'offset-to-keyset',
      rewritten_sql: stmtToSql(copy),
      explanation: `OFFSET reads and discards every skipped row. Keyset pagination continues after the last row of the previous page (${placeholders}), so each page costs the same; ${sortCols.join(', ')} is unique and NOT NULL, so no row is skipped or repeated.`,
    },
  ];
};
