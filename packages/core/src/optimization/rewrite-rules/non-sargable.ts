import { cloneAst, exprToSql, operatorOf, stmtToSql, unwrapCasts } from '../ast-sql';
import { walkAst } from '../../pg/index';
import { ast, type RewriteRule } from './rewrite-context';
import { resolveColumn } from './resolve-column';
import { conjunctsOf, selectBodies } from './select-levels';

type AExpr = { kind: string; lexpr: unknown; rexpr: unknown; name: Array<{ String?: { sval?: string } }> };
const TEMPORAL = /^(timestamp|date)/;
const NUMERIC = /^(integer|bigint|smallint|numeric)/;

const isConstant = (n: unknown): boolean => {
  let col = false;
  walkAst(n, (v) => {
    if (v.ColumnRef || v.SubLink) col = true;
  });
  return !col;
};

const castTo = (arg: unknown, type: string) => ({ TypeCast: { arg, typeName: { names: [{ String: { sval: type } }], typemod: -1 } } });

/** `date(col)`, `col::date` or `CAST(col AS date)` wrapped around a column: the column node. */
function dateWrapped(node: unknown): unknown {
  const f = (node as { FuncCall?: { funcname: Array<{ String?: { sval?: string } }>; args?: unknown[] } }).FuncCall;
  if (f && f.funcname[f.funcname.length - 1]?.String?.sval === 'date' && f.args?.length === 1) return f.args[0];
  const c = (node as { TypeCast?: { arg: unknown; typeName: { names: Array<{ String?: { sval?: string } }> } } }).TypeCast;
  if (c && c.typeName.names[c.typeName.names.length - 1]?.String?.sval === 'date') return c.arg;
  return undefined;
}

/**
 * Predicates that hide a column inside an expression cannot use a plain index on it:
 * - `date(ts) = D` (or `ts::date = D`) -> `ts >= D AND ts < D + 1` on timestamp/date columns;
 * - `col + k = c` / `col - k = c` -> `col = c - k` / `col = c + k` on integer/numeric columns.
 * (`lower(col) = ...` has no equivalent plain form: the index rules propose an expression index.)
 */
export const nonSargableRule: RewriteRule = async (ctx) => {
  const copy = cloneAst(ctx.stmt);
  const fixed: string[] = [];
  for (const sel of selectBodies(copy)) {
    if (!sel.whereClause) continue;
    const parts = conjunctsOf(sel.whereClause);
    let touched = false;
    const next = parts.flatMap((p): unknown[] => {
      const a = (p as { A_Expr?: AExpr }).A_Expr;
      if (!a || a.kind !== 'AEXPR_OP' || operatorOf(a) !== '=' || !isConstant(a.rexpr)) return [p];
      const dateCol = dateWrapped(a.lexpr);
      if (dateCol) {
        const r = resolveColumn(dateCol, sel.fromClause, ctx.catalog);
        if (!r || !TEMPORAL.test(r.table.columns.get(r.column)?.dataType ?? '')) return [p];
        const day = castTo(unwrapCasts(a.rexpr), 'date');
        touched = true;
        fixed.push(`${exprToSql(a.lexpr)} = ${exprToSql(a.rexpr)}`);
        return [ast.op('>=', dateCol, day), ast.op('<', cloneAst(dateCol), ast.op('+', cloneAst(day), ast.int(1)))];
      }
      const arith = (unwrapCasts(a.lexpr) as { A_Expr?: AExpr }).A_Expr;
      const op = arith && operatorOf(arith);
      if (arith && arith.kind === 'AEXPR_OP' && (op === '+' || op === '-') && isConstant(arith.rexpr)) {
        const r = resolveColumn(arith.lexpr, sel.fromClause, ctx.catalog);
        if (!r || !NUMERIC.test(r.table.columns.get(r.column)?.dataType ?? '')) return [p];
        touched = true;
        fixed.push(`${exprToSql(a.lexpr)} = ${exprToSql(a.rexpr)}`);
        return [ast.op('=', arith.lexpr, ast.op(op === '+' ? '-' : '+', a.rexpr, arith.rexpr))];
      }
      return [p];
    });
    if (touched) sel.whereClause = next.length === 1 ? next[0] : { BoolExpr: { boolop: 'AND_EXPR', args: next } };
  }
  if (!fixed.length) return [];
  return [
    {
      rule: 'non-sargable',
      rewritten_sql: stmtToSql(copy),
      explanation: `The column is compared bare instead of inside an expression (${fixed.join('; ')}), so an ordinary index on it can be used; the rewritten predicate selects exactly the same rows.`,
    },
  ];
};
