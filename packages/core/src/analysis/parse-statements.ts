import type { ParseTree } from '../pg/ast';
import { ensureParser, parserReady, parseTreeSync, type SqlSyntaxError, statementIndexAt, statementsOf } from '../pg/parser';
import { AppError } from '../errors/app-error';
import type { AstNode } from './ast';

/** One statement of a migration: the original text and its parse tree. */
export interface ParsedStatement {
  index: number;
  /** Original text from the input, comments included, trimmed of surrounding whitespace. */
  sql: string;
  /** The wrapped statement node, e.g. `{AlterTableStmt: {...}}`. */
  stmt: AstNode;
  /** 1-based line of the statement's first character in the whole input. */
  line: number;
  /** 1-based column of the statement's first character. */
  column: number;
}

export { ensureParser, parserReady };

const lineAt = (sql: string, charPos: number): number => sql.slice(0, charPos).split('\n').length;

/**
 * Parses a migration with the PostgreSQL 17 parser and splits it on the parser's statement
 * locations (byte offsets into the UTF-8 text), so each statement keeps its original text.
 * A rejected input throws SQL_PARSE_ERROR (422) naming the statement index, line and message.
 */
export async function parseStatements(sql: string): Promise<ParsedStatement[]> {
  await ensureParser();
  return parseStatementsSync(sql);
}

/** {@link parseStatements} once {@link ensureParser} has resolved. */
export function parseStatementsSync(sql: string): ParsedStatement[] {
  let tree: ParseTree;
  try {
    tree = parseTreeSync(sql);
  } catch (error) {
    const pos = Math.max(0, ((error as SqlSyntaxError).position ?? 1) - 1);
    const index = statementIndexAt(sql, pos);
    const line = lineAt(sql, pos);
    const message = (error as Error).message;
    throw new AppError('SQL_PARSE_ERROR', `Statement ${index} (line ${line}) could not be parsed: ${message}`, {
      details: { statement_index: index, line, parser_message: message },
    });
  }
  const out: ParsedStatement[] = statementsOf(sql, tree).map(({ index, sql: text, stmt, line, column }) => ({ index, sql: text, stmt, line, column }));
  if (out.length === 0)
    throw new AppError('SQL_PARSE_ERROR', 'The migration contains no SQL statement', {
      details: { statement_index: 0, line: 1, parser_message: 'empty input' },
    });
  return out;
}
