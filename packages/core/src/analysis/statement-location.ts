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
  // Where the statement's first token starts; line and column are counted up to it afterwards
  // (no closure to advance them: this runs for every statement with a finding).
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
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
      i = j;
    } else break;
  }
  for (let k = 0; k < i; k++) {
    if (sql.charCodeAt(k) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}
