import type { ColumnMention } from './mentions';
import { distinctiveStems, relatedStems } from './related-stems';
import type { IndexedColumn, IndexedTable } from './schema-index';
import type { Word } from './words';

/** A condition on a nullable column: "not returned" is `return_date IS NULL`. */
export interface NullFilter {
  table: IndexedTable;
  column: IndexedColumn;
  isNull: boolean;
  /** Word indexes the phrase covers. */
  words: number[];
}

const nullableOf = (tables: readonly IndexedTable[]) =>
  tables.flatMap((table) =>
    table.columns
      .filter((c) => c.column.nullable && c.kind !== 'boolean' && !table.table.primary_key?.includes(c.column.name))
      .map((column) => ({ table, column })),
  );

/**
 * "not (yet) returned", "have not been shipped", "unshipped", "no composer", "without a fax",
 * "have a fax number", "with a company": a nullable column named by the verb or noun after the
 * negation is tested for NULL. The verb is matched to the column's distinctive stems
 * ("shipped" -> shipped_date, "returned" -> return_date). Only the tables given are searched.
 */
export function findNullFilters(words: readonly Word[], tables: readonly IndexedTable[], columnMentions: readonly ColumnMention[]): NullFilter[] {
  const out: NullFilter[] = [];
  const candidates = nullableOf(tables);
  const byWord = (w: Word | undefined, stemOf: (w: Word) => string = (x) => x.stem): Array<{ table: IndexedTable; column: IndexedColumn }> => {
    if (!w || w.kind !== 'word') return [];
    const s = stemOf(w);
    return candidates.filter((c) => distinctiveStems(c.column.stems).some((cs) => relatedStems(cs, s)));
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // "not been returned", "not yet shipped", "never returned"
    if (w.lower === 'not' || w.lower === 'never') {
      let j = i + 1;
      while (['been', 'yet', 'be', 'ever', 'already'].includes(words[j]?.lower ?? '')) j++;
      const hit = byWord(words[j])[0];
      if (hit) out.push({ ...hit, isNull: true, words: [i, j] });
      continue;
    }
    // "unshipped", "unpaid", "unreturned"
    if (w.kind === 'word' && w.lower.startsWith('un') && w.lower.length > 5) {
      const hit = byWord(w, (x) => x.lower.slice(2).replace(/ed$/, ''))[0];
      if (hit) out.push({ ...hit, isNull: true, words: [i] });
      continue;
    }
    // "no composer", "without a company", "have a fax", "with a fax number"
    const negated = w.lower === 'no' || w.lower === 'without';
    const positive = (w.lower === 'have' || w.lower === 'has' || w.lower === 'with') && ['a', 'an'].includes(words[i + 1]?.lower ?? '');
    if (negated || positive) {
      let j = i + 1;
      while (['a', 'an', 'the', 'any'].includes(words[j]?.lower ?? '')) j++;
      const mention = columnMentions.find((m) => m.start === j && m.column.column.nullable);
      const hit = mention ? { table: mention.table, column: mention.column } : byWord(words[j])[0];
      if (hit) out.push({ ...hit, isNull: negated, words: [i, ...(mention ? Array.from({ length: mention.end - mention.start }, (_, k) => j + k) : [j])] });
    }
  }
  return out;
}
