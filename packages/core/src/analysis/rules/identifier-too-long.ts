import { finding, NO_FINDINGS, type Rule } from './rule';

/**
 * An identifier over 63 bytes needs a quote, a non-ASCII character or a run of 64 ASCII
 * identifier characters somewhere in the text; most statements have none of these. This reads
 * the statement from its start as far as it holds none: other characters a stretch at a time,
 * identifier characters a run at a time while the run ends within 63 (a search for any of the
 * three at every position, one pattern with a 64-run alternative, executed some 50 instructions
 * per character, about 30M over lemmy's migrations: this about a third of that).
 */
const SHORT_RUNS = /(?:[^"\u0080-\uffffA-Za-z0-9_$]+|[A-Za-z0-9_$]{1,63}(?![A-Za-z0-9_$]))*/y;
/**
 * The same question as a search, for long statements: the pattern above keeps a backtracking
 * entry per stretch it reads, which grows slower per character on long texts and runs out of
 * stack on a statement of megabytes.
 */
const LONG_RUN_OR_QUOTE = /["\u0080-\uffff]|(?:^|[^A-Za-z0-9_$])[A-Za-z0-9_$]{64}/;
const LONG_STATEMENT = 20_000;

/** The text may hold an identifier over 63 bytes (when false, it holds none). */
function mayHoldLongIdentifier(sql: string): boolean {
  if (sql.length > LONG_STATEMENT) return LONG_RUN_OR_QUOTE.test(sql);
  SHORT_RUNS.lastIndex = 0;
  SHORT_RUNS.test(sql);
  return SHORT_RUNS.lastIndex !== sql.length;
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
