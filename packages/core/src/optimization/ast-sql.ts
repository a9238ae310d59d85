import { deparse } from '../pg/deparse';
import type { AstNode } from '../pg/index';

/** SQL text of an expression node. */
export function exprToSql(expr: unknown): string {
  const stmt = { SelectStmt: { targetList: [{ ResTarget: { val: expr } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
  return deparse(stmt).replace(/^SELECT\s+/i, '');
}

/** SQL text of a statement node such as `{ SelectStmt: {...} }`. */
export const stmtToSql = (stmt: AstNode): string => deparse(stmt);

/** A deep copy, for rules that edit an AST without touching the original. */
export const cloneAst = <T>(node: T): T => structuredClone(node);

/** `{ ColumnRef: ... }` field names, e.g. ["o", "email"]; undefined for anything else. */
export function columnRefFields(node: unknown): string[] | undefined {
  const ref = (node as { ColumnRef?: { fields?: Array<Record<string, { sval?: string }>> } } | null)?.ColumnRef;
  if (!ref?.fields) return undefined;
  const out: string[] = [];
  for (const f of ref.fields) {
    if (!f.String?.sval) return undefined;
    out.push(f.String.sval);
  }
  return out;
}

/** Strips casts: `(o.status)::text` is still the column for indexing purposes. */
export function unwrapCasts(node: unknown): unknown {
  let n = node as { TypeCast?: { arg: unknown } } | null;
  while (n && typeof n === 'object' && 'TypeCast' in n && n.TypeCast) n = n.TypeCast.arg as typeof n;
  return n;
}

/** Operator name of an `A_Expr`, e.g. "=", "<". */
export function operatorOf(aexpr: { name?: Array<{ String?: { sval?: string } }> }): string | undefined {
  return aexpr.name?.[aexpr.name.length - 1]?.String?.sval;
}
