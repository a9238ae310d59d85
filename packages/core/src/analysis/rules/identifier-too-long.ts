import { finding, NO_FINDINGS, type Rule } from './rule';

/**
 * An identifier over 63 bytes needs a quote, a non-ASCII character or a run of 64 ASCII
 * identifier characters somewhere in the text; most statements have none of these. The run is
 * found after a boundary character rather than with a lookbehind, which cost 1-1.5 ms of a corpus
 * pass (a loop over char codes costs more still until the JIT has optimised it).
 */
const MAY_HOLD_LONG_IDENTIFIER = /["\u0080-\uffff]|(?:^|[^A-Za-z0-9_$])[A-Za-z0-9_$]{64}/;

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
    if (!MAY_HOLD_LONG_IDENTIFIER.test(ctx.stmt.sql)) return NO_FINDINGS;
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
