/**
 * Statements a trigger function's body runs against tables each time it fires: the INSERT,
 * UPDATE and DELETE statements of a PL/pgSQL or SQL body, read from its text (`pg_proc.prosrc`)
 * after its comments and string literals are blanked. A counter cache (`UPDATE users SET n = n
 * + 1 ...`) or an audit row (`INSERT INTO audit ...`) costs a row's own write per fire, where a
 * trigger that only checks or sets NEW costs a function call. Dynamic SQL (EXECUTE) is not read.
 */
export function triggerWrites(body: string): number {
  const code = body
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase();
  let n = 0;
  for (const _ of code.matchAll(/\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+(?:only\s+)?[a-z_"][\w."$]*(?:\s+(?:as\s+)?[a-z_]\w*)?\s+set\b/g)) n += 1;
  return n;
}
