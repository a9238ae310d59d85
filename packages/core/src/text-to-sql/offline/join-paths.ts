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

/** Both steps follow a key of their `from` table (or both a key pointing at it). */
const sameDirection = (a: JoinStep, b: JoinStep): boolean => {
  const own = (s: JoinStep): boolean =>
    s.from.table.foreign_keys.some(
      (fk) => fk.referenced_table === s.to.table.name && fk.referenced_schema === s.to.table.schema && fk.columns[0] === s.on[0]![0],
    );
  return own(a) === own(b);
};

/** The tables and columns a path goes through, to tell two paths apart. */
const signature = (p: readonly JoinStep[]): string => p.map((s) => `${key(s.to)}(${s.on.map((o) => o.join('=')).join(',')})`).join('>');

/**
 * Another foreign-key path from `from` to `to` as short as `chosen` but through other tables
 * (trips -> drivers -> depots beside trips -> vehicles -> depots), or for one step another key in
 * the same direction (flights to airports by origin or by destination); null when `chosen` is the
 * only such path. A key the other way round (country.capital -> city beside city.country_code ->
 * country) is not an equal: joinPath's own preference for the table's keys, or for the keys
 * pointing at it, decides that one.
 */
export function sameLengthAlternative(tables: readonly IndexedTable[], from: IndexedTable, to: IndexedTable, chosen: readonly JoinStep[]): JoinStep[] | null {
  if (chosen.length === 0) return null;
  const mine = signature(chosen);
  // Depth-first over paths of exactly chosen.length steps that never revisit a table.
  const walk = (at: IndexedTable, path: JoinStep[], seen: Set<string>): JoinStep[] | null => {
    if (path.length === chosen.length) {
      if (at !== to || signature(path) === mine) return null;
      if (path.length > 1) return path.slice(0, -1).some((s, i) => s.to !== chosen[i]!.to) ? path : null;
      return path[0]!.on[0]![0] !== chosen[0]!.on[0]![0] && sameDirection(path[0]!, chosen[0]!) ? path : null;
    }
    for (const step of edges(tables, at, false)) {
      if (seen.has(key(step.to)) || (step.to === to && path.length + 1 < chosen.length)) continue;
      const found = walk(step.to, [...path, step], new Set([...seen, key(step.to)]));
      if (found) return found;
    }
    return null;
  };
  return walk(from, [], new Set([key(from)]));
}
