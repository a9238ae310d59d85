import { cloneAst, columnRefFields, operatorOf, stmtToSql } from '../ast-sql';
import { type RewriteRule } from './rewrite-context';
import { singleTable } from './resolve-column';
import { conjunctsOf, type SelectBody } from './select-levels';
import { fromAliases } from '../query-shape';
import { walkAst } from '../../pg/index';

const AGGS = new Set(['count', 'sum', 'min', 'max', 'avg']);
type AExpr = { kind: string; lexpr: unknown; rexpr: unknown; name: Array<{ String?: { sval?: string } }> };

/** Aliases a node reads. */
function aliasesOf(node: unknown): Set<string> {
  const out = new Set<string>();
  walkAst(node, (v) => {
    const f = columnRefFields(v);
    if (f && f.length >= 2) out.add(f[f.length - 2]!);
    else if (v.ColumnRef) out.add('?');
  });
  return out;
}

/**
 * A correlated scalar aggregate in the SELECT list, `(SELECT count(*) FROM o WHERE o.k = c.id)`,
 * runs once per outer row. It becomes one grouped pass joined back:
 * `LEFT JOIN (SELECT o.k, count(*) FROM o GROUP BY o.k) s ON s.k = c.id`, with
 * `coalesce(.., 0)` for count so rows without matches still read 0.
 */
export const correlatedSubqueryToJoinRule: RewriteRule = async (ctx) => {
  if (ctx.kind !== 'SELECT') return [];
  const copy = cloneAst(ctx.stmt);
  const sel = (copy as { SelectStmt: SelectBody }).SelectStmt;
  if (!sel.targetList || sel.fromClause?.length !== 1 || (sel.op && sel.op !== 'SETOP_NONE')) return [];
  const outerAliases = fromAliases(sel.fromClause, [...ctx.catalog.values()]);
  let n = 0;
  for (const target of sel.targetList) {
    const link = (target.ResTarget.val as { SubLink?: { subLinkType: string; subselect: { SelectStmt: SelectBody } } }).SubLink;
    if (link?.subLinkType !== 'EXPR_SUBLINK') continue;
    const sub = link.subselect.SelectStmt;
    const inner = singleTable(sub.fromClause, ctx.catalog);
    if (!inner || outerAliases.has(inner.alias) || sub.groupClause || sub.limitCount || sub.havingClause || sub.distinctClause || sub.targetList?.length !== 1)
      continue;
    const agg = (sub.targetList[0]!.ResTarget.val as { FuncCall?: { funcname: Array<{ String?: { sval?: string } }>; over?: unknown; agg_distinct?: boolean } })
      .FuncCall;
    const aggName = agg?.funcname[agg.funcname.length - 1]?.String?.sval ?? '';
    if (!agg || agg.over || !AGGS.has(aggName)) continue;
    let correlation: { innerCol: unknown; outerCol: unknown } | undefined;
    const rest: unknown[] = [];
    let bad = false;
    for (const c of conjunctsOf(sub.whereClause)) {
      const a = (c as { A_Expr?: AExpr }).A_Expr;
      const l = a ? aliasesOf(a.lexpr) : new Set<string>();
      const r = a ? aliasesOf(a.rexpr) : new Set<string>();
      const isInner = (s: Set<string>) => s.size === 1 && s.has(inner.alias);
      const isOuter = (s: Set<string>) => s.size === 1 && [...s].every((x) => outerAliases.has(x) && x !== inner.alias);
      if (a && operatorOf(a) === '=' && a.kind === 'AEXPR_OP' && !correlation && ((isInner(l) && isOuter(r)) || (isOuter(l) && isInner(r)))) {
        correlation = isInner(l) ? { innerCol: a.lexpr, outerCol: a.rexpr } : { innerCol: a.rexpr, outerCol: a.lexpr };
        continue;
      }
      const used = aliasesOf(c);
      if ([...used].some((x) => x !== inner.alias)) bad = true;
      rest.push(c);
    }
    if (!correlation || bad) continue;
    n++;
    const alias = `dbops_s${n}`;
    const grouped: SelectBody = {
      ...sub,
      targetList: [{ ResTarget: { name: 'k', val: correlation.innerCol } }, { ResTarget: { name: 'v', val: sub.targetList[0]!.ResTarget.val } }],
      whereClause: rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : { BoolExpr: { boolop: 'AND_EXPR', args: rest } },
      groupClause: [cloneAst(correlation.innerCol)],
    };
    if (!grouped.whereClause) delete grouped.whereClause;
    const value = { ColumnRef: { fields: [{ String: { sval: alias } }, { String: { sval: 'v' } }] } };
    target.ResTarget.name ??= aggName;
    target.ResTarget.val = aggName === 'count' ? { CoalesceExpr: { args: [value, { A_Const: { ival: {} } }] } } : value;
    sel.fromClause = [
      {
        JoinExpr: {
          jointype: 'JOIN_LEFT',
          larg: sel.fromClause[0],
          rarg: { RangeSubselect: { subquery: { SelectStmt: grouped }, alias: { aliasname: alias } } },
          quals: {
            A_Expr: {
              kind: 'AEXPR_OP',
              name: [{ String: { sval: '=' } }],
              lexpr: { ColumnRef: { fields: [{ String: { sval: alias } }, { String: { sval: 'k' } }] } },
              rexpr: correlation.outerCol,
            },
          },
        },
      },
    ];
  }
  if (!n) return [];
  return [
    {
      rule: 'correlated-subquery-to-join',
      rewritten_sql: stmtToSql(copy),
      explanation:
        'The correlated aggregate subquery ran once per outer row; it is now computed once, grouped by the correlation key, and joined back with a LEFT JOIN (count defaults to 0 where there is no match), giving the same values.',
    },
  ];
};
