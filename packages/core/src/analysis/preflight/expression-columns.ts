import { type AstNode, walk } from '../ast';

/** Unqualified column names an expression reads (ColumnRef with one field), in first-use order. */
export function expressionColumns(expr: unknown): string[] {
  const out: string[] = [];
  walk(expr, (n) => {
    const fields = n.ColumnRef?.fields as AstNode[] | undefined;
    const name = fields?.length === 1 ? fields[0]!.String?.sval : undefined;
    if (typeof name === 'string' && !out.includes(name)) out.push(name);
  });
  return out;
}

/** A copy of `expr` with every one-field ColumnRef named `from` renamed to `to` (a domain's VALUE -> a column). */
export function renameColumnRef(expr: AstNode, from: string, to: string): AstNode {
  const copy = structuredClone(expr);
  walk(copy, (n) => {
    const fields = n.ColumnRef?.fields as AstNode[] | undefined;
    if (fields?.length === 1 && fields[0]!.String?.sval === from) fields[0]!.String.sval = to;
  });
  return copy;
}
