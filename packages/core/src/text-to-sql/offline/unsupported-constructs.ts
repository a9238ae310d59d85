/**
 * Question shapes the offline generator has no rule for: anti-joins ("never", "without"),
 * ratios and percentages, time bucketing and medians. It still answers with its best
 * attempt, but the answer is probably wrong, so confidence must fall below 0.5.
 */
const PATTERNS: Array<[RegExp, string]> = [
  [/\b(never|without|no (?!more\b|less\b|fewer\b)\w+|none of)\b/, 'a negation over related rows'],
  [/\b(percent|percentage|share|ratio|proportion|fraction)\b/, 'a ratio or percentage'],
  [/\b(monthly|weekly|daily|yearly|per (month|week|day|year)|by (month|week|day|year))\b/, 'grouping by time period'],
  [/\b(median|percentile|standard deviation|variance)\b/, 'a statistic it cannot compute'],
];

/** What the question asks that the offline rules cannot express, or an empty list. */
export function unsupportedConstructs(lowerText: string): string[] {
  return PATTERNS.filter(([re]) => re.test(lowerText)).map(([, what]) => what);
}
