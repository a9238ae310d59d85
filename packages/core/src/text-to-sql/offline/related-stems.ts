/**
 * Whether two stems are forms of one word as the crude stemmer leaves them ("hir" for hired and
 * "hire" for hire_date; "populou" and "population"; "indep" and "independent"). Only used where
 * the kind of column is already known (a date, a year, a nullable column, a measure), since on
 * its own it would also relate "count" and "country".
 */
export function relatedStems(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 3) return false;
  let p = 0;
  while (p < shorter && a[p] === b[p]) p++;
  return p >= Math.max(3, shorter - 2);
}

/** Distinctive stems of a column name: without the parts every column of its kind has. */
export const distinctiveStems = (stems: readonly string[]): string[] =>
  stems.filter((s) => !['date', 'time', 'timestamp', 'year', 'day', 'at', 'on', 'is', 'has', 'flag', 'count', 'num', 'number'].includes(s));
