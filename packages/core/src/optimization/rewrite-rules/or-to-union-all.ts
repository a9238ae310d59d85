import { cloneAst, columnRefFields, operatorOf, stmtToSql, unwrapCasts } from '../ast-sql';
import { type RewriteRule } from './rewrite-context';
import { hasAggregate, type SelectBody } from './select-levels';

/** `col = const` as [column, constant text], for the disjointness check. */
function equalityOf(node: unknown): [string, string] | undefined {
  const a = (node as { A_Expr?: { kind: string; lexpr: unknown; rexpr: unknown; name: Array<{ String?: { sval?: string } }> } }).A_Expr;
  if (!a || a.kind !== 'AEXPR_OP' || operatorOf(a) !== '=') return undefined;
  const f = columnRefFields(unwrapCasts(a.lexpr));
  const c = (unwrapCasts(a.rexpr) as { A_Const?: unknown }).A_Const;
  return f && c ? [f.join('.'), JSON.stringify(c)] : undefined;
}

/**
 * `WHERE a = 1 OR b = 2` -> `... WHERE a = 1 UNION ALL ... WHERE b = 2 AND NOT COALESCE(a = 1, false)`,
 * so each branch can use its own index. Branches are made disjoint: equalities on one column with
 * different constants already are; otherwise each later branch excludes the earlier ones, so no
 * row is returned twice.
 */
export const orToUnionAllRule: RewriteRule = async (ctx) => {
  if (ctx.kind !== 'SELECT') return [];
  const sel = (ctx.stmt as { SelectStmt: SelectBody }).SelectStmt;
  const or = (sel.whereClause as { BoolExpr?: { boolop: string; args: unknown[] } } | undefined)?.BoolExpr;
  if (or?.boolop !== 'OR_EXPR' || or.args.length > 8) return [];
  if (sel.sortClause || sel.limitCount || sel.limitOffset || sel.groupClause || sel.distinctClause || sel.havingClause || sel.windowClause) return [];
  if (hasAggregate(sel.targetList) || (sel.op && sel.op !== 'SETOP_NONE') || sel.withClause) return [];
  const eqs = or.args.map(equalityOf);
  const sameColumn = eqs.every((e) => e && e[0] === eqs[0]![0]) && new Set(eqs.map((e) => e![1])).size === eqs.length;
  if (sameColumn) return []; // one column: `IN (...)` on one index is better than a UNION
  const branches = or.args.map((arg, i) => {
    const b = cloneAst(sel);
    // NOT COALESCE(prev, false) is `prev IS NOT TRUE` in a form no deparser precedence can break.
    const guards = or.args.slice(0, i).map((prev) => ({
      BoolExpr: { boolop: 'NOT_EXPR', args: [{ CoalesceExpr: { args: [cloneAst(prev), { A_Const: { boolval: {} } }] } }] },
    }));
    b.whereClause = guards.length ? { BoolExpr: { boolop: 'AND_EXPR', args: [cloneAst(arg), ...guards] } } : cloneAst(arg);
    return { SelectStmt: b };
  });
  let union = branches[0] as unknown;
  for (const next of branches.slice(1)) {
    union = {
      SelectStmt: {
        op: 'SETOP_UNION',
        all: true,
        larg: (union as { SelectStmt: SelectBody }).SelectStmt,
        rarg: next.SelectStmt,
        limitOption: 'LIMIT_OPTION_DEFAULT',
      },
    };
  }
  return [
    {
      rule: 'or-to-union-all',
      rewritten_sql: stmtToSql(union as never),
      explanation: `An OR across different columns usually forces one scan of the whole table; split into ${branches.length} UNION ALL branches, each can use an index on its own column. Later branches exclude rows matched by earlier ones (NOT COALESCE(earlier, false)), so every row appears exactly once, as before.`,
    },
  ];
};
