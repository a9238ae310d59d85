import { type AstNode, nodeKind, walkAst } from '../pg/ast';

// Apart from batched-statement.ts, which writes the batches' SQL with the deparser: the lint rule
// that checks a `-- dbops:batched` comment needs only this verdict, and offline lint (`dbops
// lint`) then loads no deparser.

/**
 * Why a parsed statement (`{UpdateStmt: ...}` / `{DeleteStmt: ...}`) cannot be batched by ranges
 * of `key` without changing what it does, or null when it can.
 */
export function batchRefusal(stmt: AstNode, key: string): string | null {
  const kind = nodeKind(stmt);
  if (kind !== 'UpdateStmt' && kind !== 'DeleteStmt') return 'only an UPDATE or a DELETE runs in batches';
  const body = stmt[kind] as AstNode;
  const rel = body.relation as AstNode;
  if (body.withClause) return 'a statement with WITH is not batched (its queries would run once per batch)';
  let why: string | null = null;
  walkAst(body.whereClause, (n) => {
    if (n.CurrentOfExpr) why = 'WHERE CURRENT OF names a cursor row, not a range of rows';
  });
  if (why) return why;
  if (kind === 'UpdateStmt' && (body.targetList as AstNode[]).some((t) => t.ResTarget?.name === key))
    return `the statement sets the key column ${key} itself, so a row could move into a later batch and change twice, or into an earlier one and never`;
  // Any other mention of the target table would read rows that earlier batches already changed.
  walkAst({ ...body, relation: undefined }, (n) => {
    const rv = n.RangeVar as AstNode | undefined;
    if (rv && rv.relname === rel.relname && (!rv.schemaname || !rel.schemaname || rv.schemaname === rel.schemaname))
      why = `the statement reads ${String(rel.relname)} again (in FROM, USING or a subquery), which would see the rows earlier batches changed`;
  });
  return why;
}

/** Whether an UPDATE's or DELETE's target is named with ONLY (its inheritance children are not reached). */
export const targetOnly = (stmt: AstNode): boolean => ((stmt[nodeKind(stmt)] as AstNode).relation as AstNode).inh !== true;
