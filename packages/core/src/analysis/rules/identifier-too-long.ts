import { finding, NO_FINDINGS, type Rule } from './rule';

/**
 * Whether the text can hold an identifier over 63 bytes: it needs a quote, a non-ASCII character
 * or a run of 64 ASCII identifier characters somewhere; most statements have none of these. One
 * pass over the char codes (the same test as the regex `["\u0080-\uffff]|[A-Za-z0-9_$]{64}`,
 * which cost 1-1.5 ms of a corpus pass).
 */
function mayHoldLongIdentifier(sql: string): boolean {
  let run = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charCodeAt(i);
    if (c === 34 || c >= 0x80) return true;
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36) {
      if (++run === 64) return true;
    } else run = 0;
  }
  return false;
}

/** Identifier tokens of the statement text, with string literals and comments removed. */
function identifiers(sql: string): string[] {
  const stripped = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, ' ')
    .replace(/'(?:[^']|'')*'/g, ' ');
  const out: string[] = [];
  for (const m of stripped.matchAll(/"((?:[^"]|"")+)"|([A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*)/g))
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  return out;
}

/**
 * NAMEDATALEN is 64: PostgreSQL truncates longer names to 63 bytes (the parser already did, so
 * the check reads the original text).
 */
export const identifierTooLong: Rule = {
  name: 'identifier-too-long',
  severity: 'warning',
  doc: 'Identifiers over 63 bytes are silently truncated by PostgreSQL.',
  check(ctx) {
    if (!mayHoldLongIdentifier(ctx.stmt.sql)) return NO_FINDINGS;
    const long = [...new Set(identifiers(ctx.stmt.sql).filter((v) => Buffer.byteLength(v, 'utf8') > 63))];
    return long.map((v) =>
      finding(
        this.name,
        `Identifier "${v}" is ${Buffer.byteLength(v, 'utf8')} bytes; PostgreSQL truncates it to 63, so later references by the full name fail.`,
        'a name of at most 63 bytes.',
      ),
    );
  },
};
