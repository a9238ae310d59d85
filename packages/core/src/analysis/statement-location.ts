import type { ParsedStatement } from './parse-statements';

/**
 * Where a statement's first token is (1-based line and column): its text starts with any
 * comments written above it, which a reader does not count as the statement.
 */
export function statementLocation(p: ParsedStatement): { line: number; column: number } {
  const sql = p.sql;
  let line = p.line;
  let column = p.column;
  let i = 0;
  const advance = (to: number): void => {
    for (; i < to; i++) {
      if (sql.charCodeAt(i) === 10) {
        line++;
        column = 1;
      } else column++;
    }
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') advance(i + 1);
    else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      advance(end < 0 ? sql.length : end);
    } else if (c === '/' && sql[i + 1] === '*') {
      // PostgreSQL block comments nest.
      let depth = 0;
      let j = i;
      while (j < sql.length) {
        if (sql[j] === '/' && sql[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      advance(j);
    } else break;
  }
  return { line, column };
}
