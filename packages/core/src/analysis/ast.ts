/**
 * The parser's JSON tree is deep and wide (hundreds of node kinds); rules read a handful of
 * fields each, so it is typed loosely here and narrowed by the helpers below.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AstNode = Record<string, any>;

/** The single key of a wrapped node, e.g. `{AlterTableStmt: {...}}` -> "AlterTableStmt". */
export function nodeKind(n: AstNode | undefined): string {
  // First own key without allocating a key array (called many times per statement).
  if (n) for (const k in n) return k;
  return '';
}

/** The body of a wrapped node, e.g. `{AlterTableStmt: body}` -> body. */
export const nodeBody = (n: AstNode | undefined): AstNode => (n ? ((n[nodeKind(n)] as AstNode) ?? {}) : {});

/** `schema.name` of a RangeVar, defaulting to the public schema as a default search_path does. */
export function rangeVarName(rv: AstNode | undefined): string {
  if (!rv) return '';
  return `${rv.schemaname ?? 'public'}.${rv.relname ?? ''}`;
}

/** Dotted names list (`[{String:{sval}}...]`) -> strings. */
export function names(list: AstNode[] | undefined): string[] {
  const out: string[] = [];
  if (list) for (let i = 0; i < list.length; i++) out.push(String(list[i]!.String?.sval ?? list[i]!.sval ?? ''));
  return out;
}

/** A type name as written, without the pg_catalog qualifier the parser adds. */
export function typeNameText(tn: AstNode | undefined): string {
  if (!tn) return '';
  let base = '';
  const list = tn.names as AstNode[] | undefined;
  // The name parts read in place (as names() would give them), without an array per type.
  if (list)
    for (let i = 0, n = 0; i < list.length; i++) {
      const part = String(list[i]!.String?.sval ?? list[i]!.sval ?? '');
      if (part === 'pg_catalog') continue;
      base += n++ ? `.${part}` : part;
    }
  let mods = '';
  const typmods = tn.typmods as AstNode[] | undefined;
  if (typmods) {
    for (let i = 0; i < typmods.length; i++) {
      const v = typmods[i]!.A_Const?.ival?.ival ?? typmods[i]!.A_Const?.ival ?? '';
      if (v !== '') mods += mods ? `,${v}` : `(${v}`;
    }
    if (mods) mods += ')';
  }
  const arr = tn.arrayBounds ? '[]'.repeat((tn.arrayBounds as unknown[]).length) : '';
  return `${base}${mods}${arr}`;
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
