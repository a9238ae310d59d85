import { cloneAst, columnRefFields, stmtToSql } from '../ast-sql';
import { walkAst } from '../../pg/index';
import { ast, type RewriteRule } from './rewrite-context';
import { hasOuterJoin, resolveColumn, singleTable } from './resolve-column';
import { selectBodies, type SelectBody } from './select-levels';

/**
 * `x NOT IN (SELECT c FROM t ...)` -> `NOT EXISTS (SELECT 1 FROM t WHERE ... AND t.c = x)`.
 * Only when both `x` and `c` are provably NOT NULL: with a NULL on either side NOT IN yields
 * no rows (or NULL) where NOT EXISTS would return them, so the rewrite would change results.
 */
export const notInToNotExistsRule: RewriteRule = async (ctx) => {
  const copy = cloneAst(ctx.stmt);
  let changed = 0;
  for (const outer of selectBodies(copy)) {
    if (!outer.whereClause || hasOuterJoin(outer.fromClause)) continue;
    walkAst(outer.whereClause, (v) => {
      const not = v.BoolExpr as { boolop: string; args: unknown[] } | undefined;
      if (not?.boolop !== 'NOT_EXPR') return;
      const link = (not.args[0] as { SubLink?: { subLinkType: string; testexpr: unknown; subselect: { SelectStmt: SelectBody } } }).SubLink;
      if (link?.subLinkType !== 'ANY_SUBLINK' || !columnRefFields(link.testexpr)) return;
      const sub = link.subselect.SelectStmt;
      if (sub.groupClause || sub.limitCount || sub.distinctClause || sub.havingClause || (sub.op && sub.op !== 'SETOP_NONE')) return;
      const inner = singleTable(sub.fromClause, ctx.catalog);
      const target = sub.targetList?.length === 1 ? sub.targetList[0]!.ResTarget.val : undefined;
      if (!inner || !target) return;
      const innerCol = resolveColumn(target, sub.fromClause, ctx.catalog);
      const outerCol = resolveColumn(link.testexpr, outer.fromClause, ctx.catalog);
      if (!innerCol || !outerCol) return;
      if (!innerCol.table.columns.get(innerCol.column)?.notNull || !outerCol.table.columns.get(outerCol.column)?.notNull) return;
      sub.targetList = ast.one() as SelectBody['targetList'];
      const eq = ast.op('=', ast.col(inner.alias, innerCol.column), ast.col(outerCol.alias, outerCol.column));
      sub.whereClause = sub.whereClause ? ast.and(sub.whereClause, eq) : eq;
      not.args[0] = ast.exists({ SelectStmt: sub });
      changed++;
    });
  }
  if (!changed) return [];
  return [
    {
      rule: 'not-in-to-not-exists',
      rewritten_sql: stmtToSql(copy),
      explanation:
        'NOT IN over a subquery becomes NOT EXISTS, which the planner runs as an anti-join (and can use an index on the inner column) instead of a hashed or per-row subplan. Both columns are declared NOT NULL, so the results are identical.',
    },
  ];
};
