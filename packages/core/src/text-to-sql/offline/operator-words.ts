import type { Word } from './words';

/**
 * Words that ask for an operation rather than name a thing: "average", "most", "not", "different".
 * They are stop words for the matching of tables and columns, so nothing else checks that the SQL
 * did what they ask; a question whose "average" produced no avg() was answered as another question.
 */
const OPERATORS: Array<{ word: RegExp; evidence: RegExp }> = [
  // Superlatives whose direction is plain: the SQL must sort or aggregate that way.
  { word: /^(most|highest|largest|biggest|priciest|dearest|maximum|max|longest|best)$/, evidence: /\bdesc\b|\bmax\(/ },
  { word: /^(least|lowest|smallest|fewest|cheapest|minimum|min|shortest|worst)$/, evidence: /\basc\b|\bmin\(|\border by (?![^\n]*\bdesc\b)/ },
  { word: /^(average|mean|avg)$/, evidence: /\bavg\(/ },
  { word: /^(sum|summed|altogether|combined)$/, evidence: /\bsum\(/ },
  { word: /^(oldest|newest|youngest|latest|earliest)$/, evidence: /\border by\b|\bmax\(|\bmin\(|\brank\(\)/ },
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
  return operatorWords(words, skip, sql, false);
}

/** Operator words whose operation the SQL does contain ("fewest" and `ORDER BY ... ASC`): placed. */
export function performedOperatorWords(words: readonly Word[], skip: (i: number) => boolean, sql: string): Word[] {
  return operatorWords(words, skip, sql, true);
}

function operatorWords(words: readonly Word[], skip: (i: number) => boolean, sql: string, performed: boolean): Word[] {
  const s = sql.toLowerCase();
  return words.filter((w) => {
    if (w.kind !== 'word' || skip(w.index)) return false;
    if (/^(least|most)$/.test(w.lower) && words[w.index - 1]?.lower === 'at') return false;
    // "how much", "in total": an amount, so an aggregate (or a measure picked out), never bare rows.
    if ((w.lower === 'much' && words[w.index - 1]?.lower === 'how') || (w.lower === 'total' && words[w.index - 1]?.lower === 'in')) {
      return /\b(sum|avg|count|max|min)\(|^select (?!\w+\.\*)/im.test(s) === performed;
    }
    const op = OPERATORS.find((o) => o.word.test(w.lower));
    return op !== undefined && op.evidence.test(s) === performed;
  });
}
