/** A date condition found in the question, as SQL over a column placeholder `{col}`. */
export interface DateRange {
  condition: string;
  /** Word indexes the phrase covers. */
  start: number;
  end: number;
  text: string;
  /** For a whole year ("in 2006", "before 1850"): the comparison to use on a column holding years as numbers. */
  year?: { op: '=' | '<' | '>' | '>='; value: number };
}

const UNITS: Record<string, string> = {
  day: 'days',
  days: 'days',
  week: 'weeks',
  weeks: 'weeks',
  month: 'months',
  months: 'months',
  year: 'years',
  years: 'years',
};
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const lit = (d: string): string => `'${d}'`;
const nextYear = (y: number): string => `${y + 1}-01-01`;

/**
 * Recognises "last 30 days", "past 2 weeks", "last month", "this year", "today", "yesterday",
 * "in 2024", "in March 2024", "since 2024-01-01", "before 2023", "after 2024-06-01",
 * "between 2024-01-01 and 2024-03-31". Word indexes refer to the lower-cased word list.
 */
export function findDateRange(lowerWords: readonly string[]): DateRange | null {
  const w = lowerWords;
  for (let i = 0; i < w.length; i++) {
    const a = w[i] ?? '';
    const b = w[i + 1] ?? '';
    const c = w[i + 2] ?? '';
    if ((a === 'last' || a === 'past' || a === 'previous') && /^\d+$/.test(b) && UNITS[c]) {
      return { condition: `{col} >= now() - interval '${b} ${UNITS[c]}'`, start: i, end: i + 3, text: `${a} ${b} ${c}` };
    }
    if ((a === 'last' || a === 'past' || a === 'previous') && UNITS[b]) {
      return { condition: `{col} >= now() - interval '1 ${UNITS[b]}'`, start: i, end: i + 2, text: `${a} ${b}` };
    }
    if (a === 'this' && UNITS[b]) {
      const unit = UNITS[b]!.replace(/s$/, '');
      return { condition: `{col} >= date_trunc('${unit}', now())`, start: i, end: i + 2, text: `${a} ${b}` };
    }
    if (a === 'today') return { condition: `{col} >= current_date`, start: i, end: i + 1, text: a };
    if (a === 'yesterday') return { condition: `{col} >= current_date - 1 AND {col} < current_date`, start: i, end: i + 1, text: a };
    if (a === 'between' && /^\d{4}-\d{2}-\d{2}$/.test(b) && c === 'and' && /^\d{4}-\d{2}-\d{2}$/.test(w[i + 3] ?? '')) {
      return { condition: `{col} >= ${lit(b)} AND {col} < ${lit(w[i + 3]!)}::date + 1`, start: i, end: i + 4, text: `between ${b} and ${w[i + 3]}` };
    }
    if ((a === 'in' || a === 'during') && MONTHS.includes(b) && /^\d{4}$/.test(c)) {
      const m = MONTHS.indexOf(b) + 1;
      const from = `${c}-${String(m).padStart(2, '0')}-01`;
      return { condition: `{col} >= ${lit(from)} AND {col} < ${lit(from)}::date + interval '1 month'`, start: i, end: i + 3, text: `${a} ${b} ${c}` };
    }
    if ((a === 'in' || a === 'during' || (a === 'of' && /^(month|months|year|quarter|week)$/.test(w[i - 1] ?? ''))) && /^(1[5-9]|20)\d{2}$/.test(b)) {
      const y = Number(b);
      return {
        condition: `{col} >= ${lit(`${y}-01-01`)} AND {col} < ${lit(nextYear(y))}`,
        start: i,
        end: i + 2,
        text: `${a} ${b}`,
        year: { op: '=', value: y },
      };
    }
    if (a === 'since' || a === 'after' || a === 'before') {
      // "after 2012" is written from 2012 itself (the start of 2012 plus a year), so the SQL
      // visibly uses the year the question named.
      const date = /^\d{4}-\d{2}-\d{2}$/.test(b)
        ? lit(b)
        : /^(1[5-9]|20)\d{2}$/.test(b)
          ? a === 'after'
            ? `${lit(`${b}-01-01`)}::date + interval '1 year'`
            : lit(`${b}-01-01`)
          : null;
      if (date) {
        const op = a === 'before' ? '<' : a === 'after' && /^\d{4}-\d{2}-\d{2}$/.test(b) ? '>' : '>=';
        const year = /^\d{4}$/.test(b)
          ? { op: a === 'before' ? ('<' as const) : a === 'after' ? ('>' as const) : ('>=' as const), value: Number(b) }
          : undefined;
        return { condition: `{col} ${op} ${date}`, start: i, end: i + 2, text: `${a} ${b}`, ...(year ? { year } : {}) };
      }
    }
  }
  return null;
}
