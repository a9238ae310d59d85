import { cloneAst, operatorOf, stmtToSql } from '../ast-sql';
import { walkAst } from '../../pg/index';
import { ast, type RewriteRule } from './rewrite-context';
import type { SelectBody } from './select-levels';

type Sub = { SubLink?: { subLinkType: string; subselect: { SelectStmt: SelectBody } } };

const isCountStar = (val: unknown): boolean => {
  const f = (val as { FuncCall?: { funcname: Array<{ String?: { sval?: string } }>; agg_star?: boolean; args?: unknown[] } }).FuncCall;
  return !!f && f.funcname[f.funcname.length - 1]?.String?.sval === 'count' && (f.agg_star === true || f.args?.length === 1);
};

const intValue = (node: unknown): number | undefined => {
  const c = (node as { A_Const?: { ival?: { ival?: number } } }).A_Const;
  return c?.ival ? (c.ival.ival ?? 0) : undefined;
};

/** Which comparison of a count with a constant means "at least one" (true) or "none" (false). */
function existsMeaning(op: string | undefined, n: number | undefined): boolean | undefined {
  if (op === '>' && n === 0) return true;
  if ((op === '>=' || op === '!=' || op === '<>') && (n === 1 || (op !== '>=' && n === 0))) return true;
  if (op === '=' && n === 0) return false;
  if (op === '<' && n === 1) return false;
  return undefined;
}

/**
 * `(SELECT count(*) FROM t WHERE ...) > 0` -> `EXISTS (SELECT 1 FROM t WHERE ...)` (and `= 0` ->
 * NOT EXISTS): EXISTS stops at the first matching row instead of counting them all.
 */
export const countToExistsRule: RewriteRule = async (ctx) => {
  const copy = cloneAst(ctx.stmt);
  let changed = 0;
  // Replaces in place, so it looks at every slot that can hold an expression: fields and array items.
  type Slot = [Record<string | number, unknown>, string | number];
  const slots = (v: Record<string, unknown>): Slot[] =>
    Object.entries(v).flatMap(([k, val]): Slot[] => (Array.isArray(val) ? val.map((_, i): Slot => [val as unknown as Record<number, unknown>, i]) : [[v, k]]));
  walkAst(copy, (v) => {
    for (const [holder, key] of slots(v)) {
      const current = holder[key];
      const a = (current as { A_Expr?: { kind: string; lexpr: unknown; rexpr: unknown; name: Array<{ String?: { sval?: string } }> } } | null)?.A_Expr;
      if (!a || a.kind !== 'AEXPR_OP') continue;
      const link = (a.lexpr as Sub).SubLink;
      if (link?.subLinkType !== 'EXPR_SUBLINK') continue;
      const sub = link.subselect.SelectStmt;
      if (sub.targetList?.length !== 1 || !isCountStar(sub.targetList[0]!.ResTarget.val) || sub.groupClause || sub.havingClause || sub.limitCount) continue;
      const meaning = existsMeaning(operatorOf(a), intValue(a.rexpr));
      if (meaning === undefined) continue;
      // count(col) counts non-NULL values only: keep that meaning with a filter.
      const countArg = ((sub.targetList[0]!.ResTarget.val as { FuncCall: { args?: unknown[] } }).FuncCall.args ?? [])[0];
      if (countArg) {
        const notNull = { NullTest: { arg: countArg, nulltesttype: 'IS_NOT_NULL' } };
        sub.whereClause = sub.whereClause ? ast.and(sub.whereClause, notNull) : notNull;
      }
      sub.targetList = ast.one() as SelectBody['targetList'];
      const exists = ast.exists({ SelectStmt: sub });
      holder[key] = meaning ? exists : ast.not(exists);
      changed++;
    }
  });
  if (!changed) return [];
  return [
    {
      rule: 'count-to-exists',
      rewritten_sql: stmtToSql(copy),
      explanation:
        'Comparing a subquery count with zero only asks whether a row exists; EXISTS stops at the first match instead of counting every matching row.',
    },
  ];
};
