import { type AstNode, nodeBody, nodeKind, rangeVarName } from '../ast';
import type { ParsedStatement } from '../parse-statements';

/**
 * Where an INSERT's rows come from, as far as its text tells without running (or planning) its
 * query: a VALUES list or DEFAULT VALUES counts itself; a SELECT of one table, unfiltered, is that
 * table's rows; anything else (a WHERE, joins, set operations, functions) is a guess. An INSERT
 * changes none of the target's existing rows, so the target's size is not its row count.
 */
export type InsertSource =
  | { kind: 'values'; rows: number }
  | { kind: 'table'; table: string; filtered: boolean }
  /** `reads`: the tables its top-level FROM names (joined ones too), for a guess when the query cannot be planned. */
  | { kind: 'unknown'; reads: string[] };

/** The source of an INSERT's rows, or null when the statement is not an INSERT. */
export function insertSource(stmt: ParsedStatement): InsertSource | null {
  if (nodeKind(stmt.stmt) !== 'InsertStmt') return null;
  const select = (nodeBody(stmt.stmt).selectStmt as AstNode | undefined)?.SelectStmt as AstNode | undefined;
  if (!select) return { kind: 'values', rows: 1 }; // DEFAULT VALUES
  if (select.valuesLists?.length) return { kind: 'values', rows: select.valuesLists.length };
  const from = select.fromClause as AstNode[] | undefined;
  const simple =
    (select.op ?? 'SETOP_NONE') === 'SETOP_NONE' &&
    !select.groupClause &&
    !select.havingClause &&
    !select.limitCount &&
    !select.distinctClause &&
    !select.withClause;
  if (simple && from?.length === 1 && from[0]!.RangeVar) return { kind: 'table', table: rangeVarName(from[0]!.RangeVar), filtered: !!select.whereClause };
  return { kind: 'unknown', reads: (from ?? []).flatMap(fromTables) };
}

/** The tables a FROM item names: a table, or each side of a join (a sub-query or a function names none here). */
function fromTables(item: AstNode): string[] {
  if (item.RangeVar) return [rangeVarName(item.RangeVar)];
  const join = item.JoinExpr as AstNode | undefined;
  return join ? [join.larg, join.rarg].flatMap((side) => (side ? fromTables(side as AstNode) : [])) : [];
}
