import type { TableMention } from './mentions';
import { type IndexedTable, keyColumn } from './schema-index';
import type { Word } from './words';

/** "customer 100", "actor 5", "store 2", "the member with id 3": one row of a table, by key. */
export interface RowReference {
  table: IndexedTable;
  /** The key values named ("ids 1 and 5" gives two). */
  values: string[];
  /** Word indexes the reference covers (the numbers and "id"/"ids"/"number"). */
  words: number[];
  /** Where the table's name starts ("member" in "recommended by member 3"). */
  start: number;
}

const ID_WORDS = new Set(['id', 'ids', 'number', 'no', '#']);

/**
 * Table mentions followed by a number, optionally through "id"/"with id"/"number": each names
 * rows of that table by primary key. Numbers joined by "and"/"or"/commas form a list. A table
 * without a single-column numeric key has no such reference.
 */
export function findRowReferences(words: readonly Word[], tms: readonly TableMention[], isFree: (i: number) => boolean): RowReference[] {
  const out: RowReference[] = [];
  for (const m of tms) {
    const key = keyColumn(m.table);
    if (!key || key.kind !== 'number' || (m.table.table.primary_key?.length ?? 0) > 1) continue;
    let i = m.end;
    const covered: number[] = [];
    if (words[i]?.lower === 'with' && ID_WORDS.has(words[i + 1]?.lower ?? '')) {
      covered.push(i, i + 1);
      i += 2;
    } else if (ID_WORDS.has(words[i]?.lower ?? '')) {
      covered.push(i);
      i += 1;
    }
    const values: string[] = [];
    while (words[i]?.kind === 'number' && isFree(i) && /^\d+$/.test(words[i]!.text)) {
      values.push(words[i]!.text);
      covered.push(i);
      if (['and', 'or'].includes(words[i + 1]?.lower ?? '') && words[i + 2]?.kind === 'number') {
        covered.push(i + 1);
        i += 2;
      } else i += 1;
    }
    if (values.length > 0) out.push({ table: m.table, values, words: covered, start: m.start });
  }
  return out;
}
