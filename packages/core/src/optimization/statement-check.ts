import { AppError } from '../errors/app-error';
import { type AstNode, type ParseTree, parseTree, walkAst } from '../pg/index';

/** Statement kinds that EXPLAIN can plan and the optimizer accepts. */
export type OptimizableKind = 'SELECT' | 'VALUES' | 'TABLE' | 'INSERT' | 'UPDATE' | 'DELETE' | 'MERGE';

export interface CheckedStatement {
  kind: OptimizableKind;
  /** The single statement's AST node, e.g. `{ SelectStmt: {...} }`. */
  stmt: AstNode;
  parsed: ParseTree;
  /** Highest `$n` used, 0 when the query has no parameters. */
  paramCount: number;
}

const KIND_BY_NODE: Record<string, OptimizableKind> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
};

/**
 * Parses `sql` and accepts exactly one SELECT, VALUES, TABLE, INSERT, UPDATE, DELETE or MERGE.
 * Anything else (DDL, utility commands, SELECT INTO, several statements) is refused before the
 * user's database is touched, because EXPLAIN ANALYZE would execute it.
 */
export async function checkStatement(sql: string): Promise<CheckedStatement> {
  let parsed: ParseTree;
  try {
    parsed = await parseTree(sql);
  } catch (e) {
    throw new AppError('SQL_PARSE_ERROR', `The SQL does not parse: ${(e as Error).message}`);
  }
  if (parsed.stmts.length === 0) throw new AppError('SQL_PARSE_ERROR', 'The SQL holds no statement');
  if (parsed.stmts.length > 1) {
    throw new AppError('UNSUPPORTED_STATEMENT', `Only one statement can be optimized at a time; got ${parsed.stmts.length}`);
  }
  const stmt = parsed.stmts[0]!.stmt;
  const nodeName = Object.keys(stmt)[0]!;
  let kind: OptimizableKind | undefined = KIND_BY_NODE[nodeName];
  if (nodeName === 'SelectStmt') {
    const select = stmt.SelectStmt as Record<string, unknown>;
    if (select.intoClause) throw new AppError('UNSUPPORTED_STATEMENT', 'SELECT INTO creates a table and cannot be optimized; use a plain SELECT');
    kind = selectKind(sql, parsed, select);
  }
  if (!kind) {
    const label = nodeName
      .replace(/Stmt$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toUpperCase();
    throw new AppError('UNSUPPORTED_STATEMENT', `Only SELECT, INSERT, UPDATE, DELETE, MERGE, VALUES and TABLE statements can be optimized; got ${label}`);
  }
  let paramCount = 0;
  walkAst(stmt, (v) => {
    const ref = v.ParamRef as { number?: number } | undefined;
    if (ref && typeof ref.number === 'number') paramCount = Math.max(paramCount, ref.number);
  });
  return { kind, stmt, parsed, paramCount };
}

function selectKind(sql: string, parsed: ParseTree, select: Record<string, unknown>): OptimizableKind {
  if (select.valuesLists) return 'VALUES';
  const start = parsed.stmts[0]!.stmt_location ?? 0;
  return /^\s*\(*\s*table\b/i.test(sql.slice(start)) ? 'TABLE' : 'SELECT';
}
