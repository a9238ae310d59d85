import { parseTree } from '../pg/index';

/** A parse-tree node as libpg-query gives it: `{ NodeType: { ...fields } }`. */
type Node = Record<string, unknown>;

/** Why generated SQL was refused at step 4, or its parse tree when it is acceptable. */
export type SelectValidation = { ok: true; tree: Node } | { ok: false; reason: string };

/** Statement-level clauses of a SELECT that write or lock. */
function writesOrLocks(select: Node): string | null {
  if (select.intoClause) return 'SELECT INTO creates a table';
  if (Array.isArray(select.lockingClause) && select.lockingClause.length > 0) return 'FOR UPDATE/SHARE locks rows';
  return null;
}

/** Every nested node of `value` (depth first), so CTEs and sub-selects are checked too. */
function* walk(value: unknown): Generator<[string, Node]> {
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Node)) {
      if (/^[A-Z]/.test(k) && v && typeof v === 'object' && !Array.isArray(v)) yield [k, v as Node];
      yield* walk(v);
    }
  }
}

const MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/**
 * Step 4 of the pipeline: the text must parse with PostgreSQL 17's own parser and be exactly
 * one SELECT (or WITH ... SELECT) with no data-modifying part anywhere, no SELECT INTO and no
 * row locks. Comments are fine; a second statement is not.
 */
export async function validateSelect(sql: string): Promise<SelectValidation> {
  if (sql.trim() === '') return { ok: false, reason: 'The generated SQL is empty.' };
  let tree: { stmts?: Array<{ stmt?: Node }> };
  try {
    tree = await parseTree(sql);
  } catch (error) {
    return { ok: false, reason: `Syntax error: ${error instanceof Error ? error.message : 'syntax error'}.` };
  }
  const stmts = (tree.stmts ?? []).filter((s) => s.stmt);
  if (stmts.length === 0) return { ok: false, reason: 'The generated SQL holds no statement.' };
  if (stmts.length > 1) return { ok: false, reason: `Only one statement is allowed; the generated SQL holds ${stmts.length}.` };
  const stmt = stmts[0]!.stmt!;
  const [type, node] = Object.entries(stmt)[0] as [string, Node];
  if (type !== 'SelectStmt')
    return { ok: false, reason: `Only SELECT is allowed; the generated SQL is a ${type.replace(/Stmt$/, '').toUpperCase()} statement.` };
  const own = writesOrLocks(node);
  if (own) return { ok: false, reason: `Only a plain SELECT is allowed: ${own}.` };
  for (const [kind, inner] of walk(node)) {
    if (MODIFYING.has(kind))
      return { ok: false, reason: `Only a read-only SELECT is allowed; the statement contains a data-modifying ${kind.replace(/Stmt$/, '').toUpperCase()}.` };
    if (kind === 'SelectStmt') {
      const nested = writesOrLocks(inner);
      if (nested) return { ok: false, reason: `Only a plain SELECT is allowed: ${nested}.` };
    }
  }
  return { ok: true, tree: stmt };
}
