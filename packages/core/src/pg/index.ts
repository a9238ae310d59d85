/**
 * The one SQL foundation: every parse, deparse and quoted identifier or literal the service
 * handles goes through this module.
 */
export { type AstNode, nodeKind, type ParseTree, walkAst } from './ast';
export { deparse } from './deparse';
export { leadingComments } from './leading-comments';
export {
  ensureParser,
  parsesCleanly,
  parseTree,
  parseTreeSync,
  type SqlStatement,
  SqlSyntaxError,
  splitStatements,
  statementIndexAt,
  statementsOf,
} from './parser';
export { quoteIdent, quoteLiteral, quoteName, quoteQualified } from './quote';
export { MAX_STATEMENTS, statementCountOver, tooManyStatementsIssue } from './statement-limit';
