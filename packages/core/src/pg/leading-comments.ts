/**
 * The comments before a statement's first token, in order, each without its `--` or `/* *\/`
 * markers and trimmed. The parser cuts a statement from just after the previous semicolon, so a
 * statement's text (`SqlStatement.sql`) keeps the comments written directly before it; the
 * lexer itself drops them, so they are read here with PostgreSQL's own comment rules (block
 * comments nest).
 */
export function leadingComments(statementText: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = statementText.length;
  for (;;) {
    while (i < n && /\s/.test(statementText[i]!)) i++;
    if (statementText.startsWith('--', i)) {
      const end = statementText.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out.push(statementText.slice(i + 2, stop).trim());
      i = stop;
    } else if (statementText.startsWith('/*', i)) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (statementText.startsWith('/*', j)) {
          depth++;
          j += 2;
        } else if (statementText.startsWith('*/', j)) {
          depth--;
          j += 2;
        } else j++;
      }
      // An unterminated comment is the parser's to refuse; nothing follows it here.
      if (depth > 0) return out;
      out.push(statementText.slice(i + 2, j - 2).trim());
      i = j;
    } else return out;
  }
}
