import { RequestValidationError, type ValidationIssue } from '../errors/validation-error';
import { parserReady, parseTreeSync, SqlSyntaxError, statementIndexAt } from './parser';

/**
 * Most statements one request may hold. Splitting is linear, but every statement costs a round
 * trip (/execute) or a sandbox run and a report entry (migrations); these are far above any
 * real use: pg_dump of a 1,000-table schema is about 5,000 statements.
 */
export const MAX_STATEMENTS = { execute: 1_000, migration: 10_000 } as const;

/**
 * Statements in `sql` as far as the limit needs to know. Semicolons outside quotes, dollar
 * quotes and comments bound the count from above, so text under the limit costs one scan and no
 * parse; only text over the bound is parsed, for the exact count (comments and empty statements
 * do not count). Null when that parse cannot be made here (parser not loaded yet, syntax error):
 * the caller's own parse decides then.
 */
export function statementCountOver(sql: string, max: number): number | null {
  const bound = statementIndexAt(sql, sql.length) + 1;
  if (bound <= max) return bound;
  if (!parserReady()) return null;
  try {
    return (parseTreeSync(sql).stmts ?? []).filter((s) => s.stmt).length;
  } catch (error) {
    if (error instanceof SqlSyntaxError) return null;
    throw error;
  }
}

/** The spec's validation entry for `sql` with `count` statements, over `max`. */
export function tooManyStatementsIssue(loc: Array<string | number>, count: number, max: number): ValidationIssue {
  return {
    loc,
    msg: `SQL should have at most ${max} statements, not ${count}; split it into several requests`,
    type: 'too_many_statements',
    input: null,
    ctx: { max_statements: max, statements: count },
  };
}

/** Throws the validation error (422) when `count` statements are over `max`. */
export function assertStatementLimit(count: number, max: number, loc: Array<string | number> = ['body', 'sql']): void {
  if (count > max) throw new RequestValidationError([tooManyStatementsIssue(loc, count, max)]);
}
