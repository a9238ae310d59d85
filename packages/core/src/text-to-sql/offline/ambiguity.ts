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
 * Column words of the question that name a column in two or more of the joined tables (`country`
 * of buyers and of sellers, `unit_price` of products and of order lines) where the SQL uses one
 * of them and no table named beside the words says which: the choice was a guess between equals.
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
  for (const c of columns) if (joined.includes(c.table)) bySpan.set(`${c.start}:${c.end}`, [...(bySpan.get(`${c.start}:${c.end}`) ?? []), c]);
  const out: string[] = [];
  for (const group of bySpan.values()) {
    const holders = [...new Set(group.map((c) => c.table))];
    if (holders.length < 2) continue;
    const usedIn = group.filter((c) => sql.includes(columnRef(c.table, c.column)));
    if (usedIn.length === 0 || usedIn.length === group.length) continue;
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
