import type { ValueMatch } from '../value-matches';
import type { Word } from './words';

/** A literal of the question (number, quoted string, date, sampled value) the SQL does not use. */
export interface UnusedLiteral {
  text: string;
  kind: 'number' | 'quoted' | 'date' | 'value';
}

/**
 * Text of the SQL in which a literal may be looked for. Boilerplate the generator writes on its
 * own is removed first, so a `2` from `round(avg(x)::numeric, 2)` does not account for the "2"
 * of "store 2".
 */
function searchableSql(sql: string): string {
  return sql.replace(/::numeric, 2\)/g, '::numeric)').toLowerCase();
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The string as SQL writes it inside a literal (quotes doubled), with LIKE escapes removed. */
const inLiteral = (s: string): string => s.toLowerCase().replace(/'/g, "''");

function sqlHasText(sql: string, text: string): boolean {
  const unescaped = sql.replace(/\\([\\%_])/g, '$1');
  return unescaped.includes(inLiteral(text));
}

function sqlHasNumber(sql: string, n: string): boolean {
  // As a token of its own ("LIMIT 10", "= 100", "interval '30 days'", '2012-09-01'), never as
  // part of an identifier ("address2") or of a longer number ("1000").
  const plain = n.replace(/^0+(?=\d)/, '');
  return new RegExp(`(?<![\\w.])0*${escapeRe(plain)}(?:\\.0+)?(?![\\w]|\\.\\d)`).test(sql);
}

/**
 * Every number, quoted string, ISO date and sampled value of the question that the SQL does not
 * use. The check is on the SQL text, not on the parser's bookkeeping: a phrase the parser
 * recognised but whose filter it then failed to place is still a literal the answer ignores.
 * `dismissed` word indexes were explained away by the parser (e.g. an ordinal in "1st").
 */
export function unusedLiterals(
  words: readonly Word[],
  matches: readonly ValueMatch[],
  sql: string,
  dismissed: ReadonlySet<number> = new Set(),
): UnusedLiteral[] {
  const s = searchableSql(sql);
  const out: UnusedLiteral[] = [];
  const inMatch = new Set<number>();
  for (const m of matches) {
    for (let i = m.start; i < m.end; i++) inMatch.add(i);
    const phrase = words
      .slice(m.start, m.end)
      .map((w) => w.text)
      .join(' ');
    const used = m.holders.some((h) => sqlHasText(s, h.value)) || sqlHasText(s, phrase);
    if (!used) out.push({ text: phrase, kind: 'value' });
  }
  for (const w of words) {
    if (inMatch.has(w.index) || dismissed.has(w.index)) continue;
    if (w.kind === 'number' && !sqlHasNumber(s, w.text)) out.push({ text: w.text, kind: 'number' });
    else if (w.kind === 'quoted' && w.text.trim() !== '' && !sqlHasText(s, w.text)) out.push({ text: w.text, kind: 'quoted' });
    else if (w.kind === 'date' && !s.includes(w.text)) out.push({ text: w.text, kind: 'date' });
  }
  return out;
}
