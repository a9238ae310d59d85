/**
 * Partition keys and bounds as PostgreSQL prints them (`pg_get_partkeydef`, `pg_get_expr` of
 * `relpartbound`), read into values the synthetic rows can use. Only what the clone needs: which
 * columns a key has and which constant values a bound lists.
 */

/** A bound's datum: a literal's text (as PostgreSQL would read it back), NULL, or MINVALUE/MAXVALUE. */
export type BoundDatum = { text: string } | { null: true } | { min: true } | { max: true };

export type PartitionBound =
  | { kind: 'default' }
  | { kind: 'list'; values: BoundDatum[] }
  | { kind: 'range'; from: BoundDatum[]; to: BoundDatum[] }
  | { kind: 'hash'; modulus: number; remainder: number };

export interface PartitionKey {
  strategy: 'list' | 'range' | 'hash';
  /** Column names in key order; undefined when a key part is an expression (no value can be aimed at it). */
  columns: string[] | undefined;
}

/** Splits `a, 'b, c', (d)` at top-level commas, keeping quotes and parentheses whole. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      cur += ch;
      if (ch === quote) {
        if (text[i + 1] === quote) cur += text[++i];
        else quote = null;
      }
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The text between the parenthesis at `open` and its match. */
function inParens(text: string, open: number): { inner: string; end: number } | undefined {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = text[i + 1] === quote ? (i++, quote) : null;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return { inner: text.slice(open + 1, i), end: i };
  }
  return undefined;
}

function datum(text: string): BoundDatum | undefined {
  const t = text.trim();
  const upper = t.toUpperCase();
  if (upper === 'NULL') return { null: true };
  if (upper === 'MINVALUE') return { min: true };
  if (upper === 'MAXVALUE') return { max: true };
  if (upper === 'TRUE' || upper === 'FALSE') return { text: upper.toLowerCase() };
  const quoted = /^'((?:[^']|'')*)'(?:::[\w\s."]+(?:\(\d+(?:,\d+)?\))?)?$/.exec(t);
  if (quoted) return { text: quoted[1]!.replace(/''/g, "'") };
  if (/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return { text: t };
  return undefined;
}

const datums = (inner: string): BoundDatum[] | undefined => {
  const out = splitTopLevel(inner).map(datum);
  return out.every((d) => d !== undefined) ? (out as BoundDatum[]) : undefined;
};

/** `FOR VALUES IN (...)`, `FOR VALUES FROM (...) TO (...)`, `FOR VALUES WITH (modulus m, remainder r)` or `DEFAULT`. */
export function parsePartitionBound(text: string | null): PartitionBound | undefined {
  if (!text) return undefined;
  const t = text.trim();
  if (/^DEFAULT$/i.test(t)) return { kind: 'default' };
  const head = /^FOR VALUES\s+(IN|FROM|WITH)\s*/i.exec(t);
  if (!head) return undefined;
  const first = inParens(t, head[0].length);
  if (!first) return undefined;
  const word = head[1]!.toUpperCase();
  if (word === 'IN') {
    const values = datums(first.inner);
    return values && { kind: 'list', values };
  }
  if (word === 'WITH') {
    const m = /modulus\s+(\d+)\s*,\s*remainder\s+(\d+)/i.exec(first.inner);
    return m ? { kind: 'hash', modulus: Number(m[1]), remainder: Number(m[2]) } : undefined;
  }
  const rest = t.slice(first.end + 1);
  const to = /^\s*TO\s*/i.exec(rest);
  const second = to ? inParens(rest, to[0].length) : undefined;
  const from = datums(first.inner);
  const upto = second ? datums(second.inner) : undefined;
  return from && upto ? { kind: 'range', from, to: upto } : undefined;
}

const unquoteIdent = (s: string): string => (s.startsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s.toLowerCase());

/** `RANGE (a, "B")`, `LIST (lower(x))`, `HASH (id int4_ops)`; columns undefined when a part is an expression. */
export function parsePartitionKey(text: string | null, columnNames: readonly string[]): PartitionKey | undefined {
  const m = text ? /^(RANGE|LIST|HASH)\s*/i.exec(text.trim()) : null;
  if (!m) return undefined;
  const strategy = m[1]!.toLowerCase() as PartitionKey['strategy'];
  const body = inParens(text!.trim(), m[0].length);
  if (!body) return undefined;
  const columns: string[] = [];
  for (const part of splitTopLevel(body.inner)) {
    // A column, optionally followed by COLLATE and/or an operator class.
    const id = /^("(?:[^"]|"")+"|[A-Za-z_][\w$]*)(\s|$)/.exec(part);
    const name = id ? unquoteIdent(id[1]!) : undefined;
    if (!name || !columnNames.includes(name)) return { strategy, columns: undefined };
    columns.push(name);
  }
  return { strategy, columns };
}
