/** A numeric comparison in the question: "more than 5", "at least 100", "under 20". */
export interface Comparison {
  op: '>' | '>=' | '<' | '<=' | '=';
  value: string;
  /** Index of the number word. */
  numberIndex: number;
  /** Index of the first word of the phrase. */
  start: number;
}

const PHRASES: Array<[string[], Comparison['op']]> = [
  [['more', 'than'], '>'],
  [['greater', 'than'], '>'],
  [['higher', 'than'], '>'],
  [['larger', 'than'], '>'],
  [['bigger', 'than'], '>'],
  [['longer', 'than'], '>'],
  [['older', 'than'], '>'],
  [['heavier', 'than'], '>'],
  [['more', 'expensive', 'than'], '>'],
  [['shorter', 'than'], '<'],
  [['younger', 'than'], '<'],
  [['cheaper', 'than'], '<'],
  [['lighter', 'than'], '<'],
  [['over'], '>'],
  [['above'], '>'],
  [['exceeding'], '>'],
  [['at', 'least'], '>='],
  [['no', 'less', 'than'], '>='],
  [['minimum', 'of'], '>='],
  [['less', 'than'], '<'],
  [['fewer', 'than'], '<'],
  [['lower', 'than'], '<'],
  [['smaller', 'than'], '<'],
  [['under'], '<'],
  [['below'], '<'],
  [['at', 'most'], '<='],
  [['no', 'more', 'than'], '<='],
  [['up', 'to'], '<='],
  [['exactly'], '='],
  [['equal', 'to'], '='],
];

/** Every comparison phrase followed by a number, in question order. */
export function findComparisons(lowerWords: readonly string[], isNumber: (i: number) => boolean): Comparison[] {
  const out: Comparison[] = [];
  for (let i = 0; i < lowerWords.length; i++) {
    for (const [phrase, op] of PHRASES) {
      if (phrase.every((p, j) => lowerWords[i + j] === p) && isNumber(i + phrase.length)) {
        out.push({ op, value: lowerWords[i + phrase.length] ?? '0', numberIndex: i + phrase.length, start: i });
        break;
      }
    }
  }
  // "10 or more", "5 or fewer", "100 and above": the phrase follows the number.
  for (let i = 0; i < lowerWords.length; i++) {
    if (!isNumber(i) || out.some((c) => c.numberIndex === i)) continue;
    const a = lowerWords[i + 1];
    const b = lowerWords[i + 2];
    const op: Comparison['op'] | undefined =
      (a === 'or' || a === 'and') && /^(more|greater|higher|above|over|larger)$/.test(b ?? '')
        ? '>='
        : (a === 'or' || a === 'and') && /^(less|fewer|lower|below|under|smaller)$/.test(b ?? '')
          ? '<='
          : undefined;
    if (op) out.push({ op, value: lowerWords[i] ?? '0', numberIndex: i, start: i });
  }
  // "between 10 and 20", "from 1990 to 1999": both ends included, on the same column.
  for (let i = 0; i + 3 < lowerWords.length; i++) {
    const range =
      (lowerWords[i] === 'between' && lowerWords[i + 2] === 'and') ||
      (lowerWords[i] === 'from' && (lowerWords[i + 2] === 'to' || lowerWords[i + 2] === 'until'));
    if (!range || !isNumber(i + 1) || !isNumber(i + 3)) continue;
    out.push({ op: '>=', value: lowerWords[i + 1]!, numberIndex: i + 1, start: i });
    out.push({ op: '<=', value: lowerWords[i + 3]!, numberIndex: i + 3, start: i });
  }
  out.sort((x, y) => x.numberIndex - y.numberIndex);
  // "no more than" also matched "more than" one word later: keep the longest phrase.
  return out.filter((c, k) => !out.some((o, m) => m !== k && o.numberIndex === c.numberIndex && o.start < c.start));
}
