import { loadModule, parseSync } from 'libpg-query';

/** A libpg-query AST node: a one-key object such as `{ SelectStmt: {...} }`. */
export type AstNode = Record<string, unknown>;

export interface ParsedSql {
  version: number;
  stmts: Array<{ stmt: AstNode; stmt_location?: number; stmt_len?: number }>;
}

let ready: Promise<void> | undefined;

/** Loads the WASM parser once per process. */
export const ensureParser = (): Promise<void> => (ready ??= loadModule());

/** Parses with the real PostgreSQL parser; throws the parser's message on a syntax error. */
export async function parseSql(sql: string): Promise<ParsedSql> {
  await ensureParser();
  return parseSync(sql) as ParsedSql;
}

/** True when `sql` parses. */
export async function parsesCleanly(sql: string): Promise<boolean> {
  try {
    await parseSql(sql);
    return true;
  } catch {
    return false;
  }
}

/** Visits every object in an AST, depth first, with the key it was found under. */
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
