import type { Word } from './words';

/**
 * Words that ask for an operation rather than name a thing: "average", "most", "not", "different".
 * They are stop words for the matching of tables and columns, so nothing else checks that the SQL
 * did what they ask; a question whose "average" produced no avg() was answered as another question.
 */
const OPERATORS: Array<{ word: RegExp; evidence: RegExp }> = [
  { word: /^(average|mean|avg)$/, evidence: /\bavg\(/ },
  { word: /^(sum|summed|altogether|combined)$/, evidence: /\bsum\(/ },
  {
    word: /^(most|least|highest|lowest|largest|smallest|biggest|fewest|cheapest|priciest|dearest|maximum|minimum|max|min|longest|shortest|oldest|newest|youngest|latest|earliest|best|worst)$/,
    evidence: /\border by\b|\bmax\(|\bmin\(|\brank\(\)/,
  },
  {
    word: /^(not|no|never|without|none|nobody|nothing|neither|nor|isn|aren|wasn|weren|don|doesn|didn|hasn|haven)$/,
    evidence: /\bnot\b|\bis null\b|<>|!=|= false\b|= 0\b|\bexcept\b/,
  },
  { word: /^(distinct|different|unique)$/, evidence: /\bdistinct\b|\bgroup by\b|<>/ },
];

/**
 * Words of the question asking for an operation the SQL does not contain ("the average fee"
 * answered without avg()). `skip` tells the words already explained elsewhere (a column named
 * `min_price`, a value, a filler, a clause such as "without duplicates"); "at least" and "at
 * most" are comparisons, checked with their number.
 */
export function unperformedOperatorWords(words: readonly Word[], skip: (i: number) => boolean, sql: string): Word[] {
  const s = sql.toLowerCase();
  return words.filter((w) => {
    if (w.kind !== 'word' || skip(w.index)) return false;
    if (/^(least|most)$/.test(w.lower) && words[w.index - 1]?.lower === 'at') return false;
    const op = OPERATORS.find((o) => o.word.test(w.lower));
    return op !== undefined && !op.evidence.test(s);
  });
}
