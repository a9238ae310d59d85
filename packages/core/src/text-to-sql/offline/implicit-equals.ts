import type { Comparison } from './comparisons';

/**
 * "reviews with rating 5", "rating of 5", "rating is 5": a numeric column named right before
 * a number means equality. `columnEnds` are the word indexes just after each numeric column
 * mention; numbers already claimed by an explicit comparison ("more than 5") are skipped.
 */
export function findImplicitEquals(
  lowerWords: readonly string[],
  columnEnds: readonly number[],
  isNumber: (i: number) => boolean,
  claimed: readonly Comparison[],
): Comparison[] {
  const out: Comparison[] = [];
  for (const end of columnEnds) {
    const link = ['of', 'is', '=', 'equals'].includes(lowerWords[end] ?? '') ? 1 : 0;
    const i = end + link;
    if (!isNumber(i) || claimed.some((c) => c.numberIndex === i) || out.some((c) => c.numberIndex === i)) continue;
    out.push({ op: '=', value: lowerWords[i]!, numberIndex: i, start: end });
  }
  return out;
}
