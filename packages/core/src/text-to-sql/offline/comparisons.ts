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
  // "no more than" also matched "more than" one word later: keep the longest phrase.
  return out.filter((c, k) => !out.some((o, m) => m !== k && o.numberIndex === c.numberIndex && o.start < c.start));
}
