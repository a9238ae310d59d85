/**
 * A node of libpg-query's JSON tree: a one-key object such as `{ SelectStmt: {...} }`. The tree
 * has hundreds of node kinds and callers read a handful of fields each, so it is typed loosely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AstNode = Record<string, any>;

/** The whole parse result. */
export interface ParseTree {
  version: number;
  stmts: Array<{ stmt: AstNode; stmt_location?: number; stmt_len?: number }>;
}

/** The single key of a wrapped node, e.g. `{AlterTableStmt: {...}}` -> "AlterTableStmt". */
export function nodeKind(n: AstNode | undefined): string {
  // First own key without allocating a key array (called many times per statement).
  if (n) for (const k in n) return k;
  return '';
}

/** Visits every object in a tree, depth first, with the key it was found under. */
export function walkAst(node: unknown, visit: (value: Record<string, unknown>, key: string | undefined) => void, key?: string): void {
  if (Array.isArray(node)) {
    for (const item of node) walkAst(item, visit, key);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  visit(obj, key);
  for (const [k, v] of Object.entries(obj)) walkAst(v, visit, k);
}
