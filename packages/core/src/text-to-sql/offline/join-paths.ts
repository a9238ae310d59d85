import type { IndexedTable } from './schema-index';

/** One join step: `to` joined to `from` on the column pairs. */
export interface JoinStep {
  from: IndexedTable;
  to: IndexedTable;
  on: Array<[string, string]>;
}

const key = (t: IndexedTable): string => `${t.table.schema}.${t.table.name}`;

function edges(tables: readonly IndexedTable[], t: IndexedTable, preferIncoming: boolean): JoinStep[] {
  const out: JoinStep[] = [];
  const incoming: JoinStep[] = [];
  for (const fk of t.table.foreign_keys) {
    const to = tables.find((x) => x.table.schema === fk.referenced_schema && x.table.name === fk.referenced_table);
    if (to && to !== t) out.push({ from: t, to, on: fk.columns.map((c, i) => [c, fk.referenced_columns[i] ?? c]) });
  }
  for (const other of tables) {
    if (other === t) continue;
    for (const fk of other.table.foreign_keys) {
      if (fk.referenced_schema === t.table.schema && fk.referenced_table === t.table.name) {
        incoming.push({ from: t, to: other, on: fk.referenced_columns.map((c, i) => [c, fk.columns[i] ?? c]) });
      }
    }
  }
  return preferIncoming ? [...incoming, ...out] : [...out, ...incoming];
}

/**
 * Shortest foreign-key path from `from` to `to` (breadth first, at most 4 hops), or null. Where
 * two tables are linked both ways (country.capital -> city, city.country_code -> country),
 * the path follows the table's own foreign keys first, or with `preferIncoming` the keys that
 * point at it ("countries with the most cities" counts the cities of each country).
 */
export function joinPath(tables: readonly IndexedTable[], from: IndexedTable, to: IndexedTable, preferIncoming = false): JoinStep[] | null {
  if (from === to) return [];
  const seen = new Set([key(from)]);
  let frontier: Array<{ at: IndexedTable; path: JoinStep[] }> = [{ at: from, path: [] }];
  for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const { at, path } of frontier) {
      for (const step of edges(tables, at, preferIncoming)) {
        if (seen.has(key(step.to))) continue;
        const p = [...path, step];
        if (step.to === to) return p;
        seen.add(key(step.to));
        next.push({ at: step.to, path: p });
      }
    }
    frontier = next;
  }
  return null;
}
