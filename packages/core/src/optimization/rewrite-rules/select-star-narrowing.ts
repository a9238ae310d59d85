import { cloneAst, stmtToSql } from '../ast-sql';
import { ast, type RewriteRule } from './rewrite-context';
import { singleTable } from './resolve-column';
import type { SelectBody } from './select-levels';

/**
 * `SELECT *` from one table when the business documents retrieved for the query name only some
 * of its columns: narrowing to those (plus the primary key) shrinks rows, sorts and network
 * transfer and can allow index-only scans. Without documents there is no evidence which
 * columns the caller uses, so nothing is proposed.
 */
export const selectStarNarrowingRule: RewriteRule = async (ctx) => {
  if (ctx.kind !== 'SELECT' || ctx.documents.length === 0) return [];
  const copy = cloneAst(ctx.stmt);
  const sel = (copy as { SelectStmt: SelectBody }).SelectStmt;
  const star = sel.targetList?.length === 1 && JSON.stringify(sel.targetList[0]!.ResTarget.val).includes('"A_Star"');
  const from = singleTable(sel.fromClause, ctx.catalog);
  if (!star || !from) return [];
  const text = ctx.documents.map((d) => d.excerpt.toLowerCase()).join('\n');
  const all = [...from.table.columns.keys()];
  const mentioned = all.filter((c) => new RegExp(`\\b${c.toLowerCase().replace(/[^a-z0-9_]/g, '')}\\b`).test(text));
  const pk = from.table.indexes.find((ix) => ix.unique && !ix.predicate)?.columns.map((c) => c.replace(/"/g, '')) ?? [];
  const keep = all.filter((c) => mentioned.includes(c) || pk.includes(c));
  if (mentioned.length === 0 || keep.length >= all.length) return [];
  sel.targetList = keep.map((c) => ({ ResTarget: { val: ast.col(c) } }));
  const files = [...new Set(ctx.documents.map((d) => d.document_filename))].join(', ');
  return [
    {
      rule: 'select-star-narrowing',
      rewritten_sql: stmtToSql(copy),
      explanation: `SELECT * reads all ${all.length} columns of ${from.table.name}; the business documents (${files}) only mention ${mentioned.join(', ')}. Selecting those${pk.length ? ' and the key' : ''} avoids fetching ${all.length - keep.length} unused column(s). Check that no caller reads the others.`,
      usedDocuments: true,
      keepAtEqualCost: true,
    },
  ];
};
