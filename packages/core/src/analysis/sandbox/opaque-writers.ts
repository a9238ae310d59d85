import { type AstNode, nodeKind, walk } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { SandboxSession } from './sandbox-session';

/** Statement kinds that run code whose writes the analysis cannot see from the statement's text. */
const CODE_KINDS: Record<string, string> = {
  DoStmt: 'a DO block',
  CallStmt: 'a procedure call',
  ExecuteStmt: 'a prepared statement',
  CopyStmt: 'COPY',
};

/** Kinds whose statement may call a function that writes (`SELECT seed_rows()`). */
const QUERY_KINDS = new Set(['SelectStmt', 'CreateTableAsStmt']);
const DML_KINDS = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/**
 * The statements that may change rows of tables the analysis does not name: code (DO blocks,
 * procedures, functions called from a query) and DML on a table whose triggers or rules the
 * clone holds. Row counts those tables end with are reported, not refused: a migration that
 * inserts a service account from a DO block did what it says (documenso's
 * `create_delete_account`). Each entry is a reader's phrase, e.g. `statement 0 (a DO block)`.
 */
export async function opaqueWriters(db: SandboxSession, parsed: readonly ParsedStatement[], facts: readonly StatementFacts[]): Promise<string[]> {
  const found: { index: number; why: string }[] = [];
  const dml = new Map<string, number[]>();
  for (const p of parsed) {
    const kind = nodeKind(p.stmt);
    const code = CODE_KINDS[kind];
    if (code) found.push({ index: p.index, why: code });
    else if (QUERY_KINDS.has(kind) && callsFunction(p.stmt)) found.push({ index: p.index, why: 'a function call' });
    else if (DML_KINDS.has(kind) && facts[p.index]?.table) {
      const table = facts[p.index]!.table;
      if (!dml.has(table)) dml.set(table, []);
      dml.get(table)!.push(p.index);
    }
  }
  if (dml.size) {
    const { rows } = await db.query<{ t: string }>(
      `SELECT DISTINCT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname || '.' || c.relname = ANY($1)
          AND (EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND NOT g.tgisinternal)
            OR EXISTS (SELECT 1 FROM pg_rewrite r WHERE r.ev_class = c.oid AND r.rulename <> '_RETURN'))`,
      [[...dml.keys()]],
    );
    for (const { t } of rows) for (const index of dml.get(t)!) found.push({ index, why: `writes ${t}, which has triggers or rules` });
  }
  return found.sort((a, b) => a.index - b.index).map((f) => `statement ${f.index} (${f.why})`);
}

/** Whether a function is called anywhere in the statement. */
function callsFunction(stmt: AstNode): boolean {
  let calls = false;
  walk(stmt, (n) => {
    if (n.FuncCall) calls = true;
  });
  return calls;
}
