import type { AstNode } from '../ast';

/** PostgreSQL's NAMEDATALEN - 1: longer names are truncated. */
const MAX_NAME_BYTES = 63;

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Cuts `s` to at most `n` bytes without splitting a character. */
function cut(s: string, n: number): string {
  let out = '';
  for (const ch of s) {
    if (bytes(out + ch) > n) break;
    out += ch;
  }
  return out;
}

/**
 * The name PostgreSQL gives an unnamed index or constraint (makeObjectName: `table_cols_label`,
 * the longer of table and columns shortened first so the whole fits in 63 bytes). A collision
 * with an existing name makes PostgreSQL append a number; the plan's proof then finds the
 * difference and the plan is not offered.
 */
export function defaultObjectName(table: string, columns: string[], label: string): string {
  let name1 = table;
  let name2 = columns.join('_');
  const overhead = bytes(label) + 1 + (name2 ? 1 : 0);
  while (bytes(name1) + bytes(name2) > MAX_NAME_BYTES - overhead) {
    if (bytes(name1) > bytes(name2)) name1 = cut(name1, bytes(name1) - 1);
    else name2 = cut(name2, bytes(name2) - 1);
  }
  return name2 ? `${name1}_${name2}_${label}` : `${name1}_${label}`;
}

/** Column names of index parameters as PostgreSQL names them: a column's name, `expr` for an expression. */
export function indexColumnNames(params: readonly AstNode[]): string[] {
  return params.map((p) => {
    const el = p.IndexElem as AstNode;
    return el.name ? String(el.name) : 'expr';
  });
}

/**
 * A name for a dbops helper object (a shadow column, a trigger and its function, an index or
 * constraint built ahead of a swap): `dbops_` first or `_dbops_old` last so that anyone reading
 * the catalog mid-plan knows whose it is, cut to the 63 bytes PostgreSQL keeps.
 */
export function helperName(prefix: string, name: string, suffix = ''): string {
  return `${cut(`${prefix}${name}`, MAX_NAME_BYTES - bytes(suffix))}${suffix}`;
}
