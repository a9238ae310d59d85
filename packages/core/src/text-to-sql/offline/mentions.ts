import type { IndexedColumn, IndexedTable } from './schema-index';
import type { Word } from './words';

export interface TableMention {
  table: IndexedTable;
  start: number;
  end: number;
}

export interface ColumnMention {
  table: IndexedTable;
  column: IndexedColumn;
  start: number;
  end: number;
}

/** Where a stem sequence occurs in the question, as [start, end) word ranges. */
function occurrences(words: readonly Word[], stems: readonly string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (stems.length === 0) return out;
  for (let i = 0; i + stems.length <= words.length; i++) {
    if (stems.every((s, j) => words[i + j]?.kind === 'word' && words[i + j]?.stem === s)) out.push([i, i + stems.length]);
  }
  return out;
}

/**
 * Tables and columns the question names. Longer names win over the shorter names inside them
 * ("order items" is the order_items table, not orders), and a word belongs to one mention.
 */
export function findMentions(words: readonly Word[], tables: readonly IndexedTable[]): { tables: TableMention[]; columns: ColumnMention[]; used: Set<number> } {
  const used = new Set<number>();
  const take = (start: number, end: number): boolean => {
    for (let i = start; i < end; i++) if (used.has(i)) return false;
    for (let i = start; i < end; i++) used.add(i);
    return true;
  };

  const tableCandidates = tables
    .flatMap((table) => occurrences(words, table.stems).map(([start, end]) => ({ table, start, end })))
    .sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const tableMentions: TableMention[] = [];
  for (const c of tableCandidates) if (take(c.start, c.end)) tableMentions.push(c);

  const columnCandidates = tables
    .flatMap((table) => table.columns.flatMap((column) => occurrences(words, column.stems).map(([start, end]) => ({ table, column, start, end }))))
    .sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const columnMentions: ColumnMention[] = [];
  const seen = new Set<string>();
  for (const c of columnCandidates) {
    // The same words may name a column in several tables; keep them all and let the planner pick.
    const k = `${c.start}:${c.end}`;
    if (seen.has(k) || [...Array(c.end - c.start).keys()].every((i) => !used.has(c.start + i))) {
      seen.add(k);
      for (let i = c.start; i < c.end; i++) used.add(i);
      columnMentions.push(c);
    }
  }
  tableMentions.sort((a, b) => a.start - b.start);
  columnMentions.sort((a, b) => a.start - b.start);
  return { tables: tableMentions, columns: columnMentions, used };
}
