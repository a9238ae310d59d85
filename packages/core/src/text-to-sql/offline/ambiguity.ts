import type { ColumnMention, TableMention } from './mentions';
import type { Plan } from './plan';
import { columnRef } from './schema-index';
import type { Word } from './words';

/** Words that may stand between a column and the table it belongs to: "the price of the book", "the seller's country". */
const LINK = new Set(['s', 'the', 'of', 'all', 'in', 'for', 'by', 'its', 'their', 'his', 'her', 'a', 'an', 'each', 'every', 'this', 'that', 'whose', 'per']);

/** A table named right next to the column words, with only linking words between. */
function adjacentTables(words: readonly Word[], tables: readonly TableMention[], start: number, end: number): TableMention[] {
  const linked = (a: number, b: number): boolean => b - a <= 3 && words.slice(a, b).every((w) => LINK.has(w.lower));
  return tables.filter((t) => (t.end <= start && linked(t.end, start)) || (t.start >= end && linked(end, t.start)));
}

/**
 * Column words of the question that name a column in two or more tables where the SQL uses one
 * of them and no table named beside the words says which: `country` of buyers and of sellers,
 * both joined; or a column of a table joined for it alone when another table holds one as well.
 * The main table's own column, or that of a table the question names, is the reading meant when
 * the other holders are not part of the query; otherwise the choice was a guess between equals.
 */
export function ambiguousColumns(
  plan: Plan,
  columns: readonly ColumnMention[],
  tables: readonly TableMention[],
  words: readonly Word[],
  sql: string,
): string[] {
  const joined = plan.joined();
  const bySpan = new Map<string, ColumnMention[]>();
  for (const c of columns) bySpan.set(`${c.start}:${c.end}`, [...(bySpan.get(`${c.start}:${c.end}`) ?? []), c]);
  const out: string[] = [];
  for (const all of bySpan.values()) {
    const usedIn = all.filter((c) => joined.includes(c.table) && sql.includes(columnRef(c.table, c.column)));
    if (usedIn.length === 0) continue;
    const expected = usedIn.every((c) => c.table === plan.main || plan.named.has(c.table));
    // The holders that compete: the joined ones, or all of them when the one taken was not expected.
    const group = expected ? all.filter((c) => joined.includes(c.table)) : all;
    const holders = [...new Set(group.map((c) => c.table))];
    if (holders.length < 2 || usedIn.length === group.length) continue;
    const { start, end } = group[0]!;
    const beside = adjacentTables(words, tables, start, end).map((t) => t.table);
    if (usedIn.some((c) => beside.includes(c.table))) continue;
    const phrase = words
      .slice(start, end)
      .map((w) => w.text)
      .join(' ');
    out.push(
      `"${phrase}" names a column of ${holders.map((t) => t.table.name).join(' and of ')}; ${usedIn[0]!.table.table.name}.${usedIn[0]!.column.column.name} was taken`,
    );
  }
  return out;
}

const EXTREME = /^(maximum|max|highest|largest|biggest|expensive|latest|recent|minimum|min|lowest|smallest|cheapest|earliest|newest|oldest)$/;

/**
 * "the most recent trip", "the cheapest book": a superlative right before a table's name asks for
 * that row, yet the plan answered with a max() or min() of a column. Both readings are common
 * ("the cheapest price" is the min), so the choice is a guess.
 */
export function aggregateForRow(plan: Plan, tables: readonly TableMention[], words: readonly Word[]): string | undefined {
  if (plan.groupBy.length > 0 || plan.select.length !== 1 || !/^(max|min)\(/.test(plan.select[0]!)) return undefined;
  for (const w of words) {
    if (!EXTREME.test(w.lower)) continue;
    const row = tables.find((t) => t.start === w.index + 1);
    // "the date of the most recent trip", "the price of the cheapest book": a value of that row.
    const valueOf = words.slice(Math.max(0, w.index - 4), w.index).some((x) => x.lower === 'of');
    if (row && !valueOf)
      return `"${w.text} ${words[row.start]!.text}" was read as the ${plan.select[0]!.startsWith('max') ? 'largest' : 'smallest'} value, not as the ${row.table.table.name} row that has it`;
  }
  return undefined;
}
