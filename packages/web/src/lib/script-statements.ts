/**
 * Where each statement of a script ends, as the service numbers them: the executor's
 * `error.statement_index` counts every statement of the submitted script (the script's own
 * BEGIN and COMMIT included), so the console maps it back to a safe plan's step by position.
 * The console imports no code of the service, so this is a small lexer of its own: it knows
 * PostgreSQL's quotes ('...', E'...', "...", $tag$...$tag$) and comments (--, nested /* *\/),
 * and, like the parser, counts no empty statement (only whitespace and comments between two
 * semicolons). Display only: nothing is executed from it.
 */
export function statementEnds(sql: string): number[] {
  const ends: number[] = [];
  let content = false;
  let i = 0;
  const n = sql.length;
  const identChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        const pair = sql.slice(i, i + 2);
        if (pair === '/*' || pair === '*/') {
          depth += pair === '/*' ? 1 : -1;
          i += 2;
        } else i++;
      }
    } else if (c === "'") {
      const escapes = (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !identChar(sql[i - 2]);
      content = true;
      i++;
      while (i < n) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      content = true;
      const close = sql.indexOf('"', i + 1);
      i = close < 0 ? n : close + 1;
      while (i < n && sql[i] === '"') {
        const again = sql.indexOf('"', i + 1);
        i = again < 0 ? n : again + 1;
      }
    } else if (c === '$' && !identChar(sql[i - 1])) {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i));
      content = true;
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close < 0 ? n : close + tag[0].length;
      } else i++;
    } else if (c === ';') {
      if (content) ends.push(i);
      content = false;
      i++;
    } else {
      if (!/\s/.test(c)) content = true;
      i++;
    }
  }
  if (content) ends.push(n);
  return ends;
}
