import { splitStatements } from '../pg/parser';

export { SqlSyntaxError } from '../pg/parser';

/** A parse-tree node as libpg-query gives it: `{ NodeType: { ...fields } }`. */
export type PgNode = Record<string, unknown>;

/** One top-level statement of a request, as the guardrails read it. */
export interface ParsedStatement {
  /** The node type of the statement, e.g. `SelectStmt`. */
  type: string;
  /** The statement's fields (the value under {@link type}). */
  node: Record<string, unknown>;
  /** The statement's own text, sliced out of the request (comments between statements dropped). */
  text: string;
  /** Character offset of {@link text} in the request, to map server error positions back. */
  offset: number;
}

/**
 * Splits a request into its statements with the one SQL layer (`pg/`): PostgreSQL's own parser,
 * in one linear pass. Comments and empty statements (`;;`) disappear here, so nothing can hide
 * behind them.
 */
export async function parseSql(sql: string): Promise<ParsedStatement[]> {
  return (await splitStatements(sql)).map((s) => ({ type: s.kind, node: s.stmt[s.kind] as Record<string, unknown>, text: s.sql, offset: s.offset }));
}
