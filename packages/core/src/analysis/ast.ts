/**
 * The parser's JSON tree is deep and wide (hundreds of node kinds); rules read a handful of
 * fields each, so it is typed loosely here and narrowed by the helpers below.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AstNode = Record<string, any>;

/** The single key of a wrapped node, e.g. `{AlterTableStmt: {...}}` -> "AlterTableStmt". */
export const nodeKind = (n: AstNode | undefined): string => (n ? (Object.keys(n)[0] ?? '') : '');

/** The body of a wrapped node, e.g. `{AlterTableStmt: body}` -> body. */
export const nodeBody = (n: AstNode | undefined): AstNode => (n ? ((n[nodeKind(n)] as AstNode) ?? {}) : {});

/** `schema.name` of a RangeVar, defaulting to the public schema as a default search_path does. */
export function rangeVarName(rv: AstNode | undefined): string {
  if (!rv) return '';
  return `${rv.schemaname ?? 'public'}.${rv.relname ?? ''}`;
}

/** Dotted names list (`[{String:{sval}}...]`) -> strings. */
export const names = (list: AstNode[] | undefined): string[] => (list ?? []).map((s) => String(s.String?.sval ?? s.sval ?? ''));

/** A type name as written, without the pg_catalog qualifier the parser adds. */
export function typeNameText(tn: AstNode | undefined): string {
  if (!tn) return '';
  const parts = names(tn.names).filter((p) => p !== 'pg_catalog');
  const base = parts.join('.');
  const mods = (tn.typmods as AstNode[] | undefined)?.map((m) => m.A_Const?.ival?.ival ?? m.A_Const?.ival ?? '').filter((v) => v !== '');
  const arr = tn.arrayBounds ? '[]'.repeat((tn.arrayBounds as unknown[]).length) : '';
  return `${base}${mods && mods.length ? `(${mods.join(',')})` : ''}${arr}`;
}

/** Walks every object in the tree, depth first. */
export function walk(n: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(n)) {
    for (const x of n) walk(x, visit);
  } else if (n && typeof n === 'object') {
    visit(n as AstNode);
    for (const v of Object.values(n)) if (v && typeof v === 'object') walk(v, visit);
  }
}

/** Function names called anywhere under `n` (last name part, lower case). */
export function calledFunctions(n: unknown): string[] {
  const out: string[] = [];
  walk(n, (x) => {
    if (x.FuncCall) {
      const parts = names(x.FuncCall.funcname);
      out.push((parts[parts.length - 1] ?? '').toLowerCase());
    }
    if (x.SQLValueFunction) out.push(String(x.SQLValueFunction.op ?? '').toLowerCase());
  });
  return out;
}
