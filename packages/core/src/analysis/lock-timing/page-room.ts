import type { SampledPage } from './hot-simulation';
import { HEAP_PAGE_SPACE } from './hot-update';
import { type FeatureClient, optionalQuery, samplePercent } from './live-table';

/** The heap page a row of `ref` lies on, as an SQL row value ordered by block: its relation (a partition's own) and its ctid's block. */
export const heapPageOf = (ref: string): string => `(${ref}.tableoid, (${ref}.ctid::text::point)[0])`;

/** The WHERE of an UPDATE without one, as the page sample evaluates it: every row changes. */
export const EVERY_ROW = 'true';

/**
 * Bytes a row takes on its page: `pg_column_size` of the whole row is its tuple (header, null
 * bitmap, data), aligned to 8, and its line pointer. A whole-row value reads TOASTed values back
 * in line, so a row counts at most what PostgreSQL keeps in line (`TOAST_TUPLE_TARGET`, 2032).
 */
const rowBytes = (ref: string): string => `(((least(pg_column_size(${ref}.*), 2032) + 7) / 8) * 8 + 4)`;

/** Where the rows an UPDATE changes are read from: its FROM item (with its alias), how a row is named, and its WHERE (null: not evaluated on the target). */
export interface PageRoomScope {
  from: string;
  ref: string;
  where: string | null;
}

/**
 * The heap pages of a page sample (`TABLESAMPLE SYSTEM`, about `sampleBytes` of a heap of
 * `heapBytes`) in block order, each with its free bytes and the sizes of the rows the UPDATE's
 * WHERE selects there (none without a WHERE to evaluate: see {@link spreadChanges}), and how
 * many rows it holds. Pages without a visible row are not returned by a sample; the sample counts
 * as many more empty ones as its pages fall short of its share of the heap by more than chance
 * would explain (two standard deviations), spread through it. Null when the sample fails.
 */
export async function sampledPageRoom(
  client: FeatureClient,
  scope: PageRoomScope,
  heapBytes: number,
  sampleBytes: number,
): Promise<{ pages: Array<SampledPage & { rows: number }>; percent: number } | null> {
  const percent = samplePercent(heapBytes, sampleBytes);
  // Each row's size is taken in the scan, below the grouping: a whole-row value the scan hands up
  // to an aggregate is formed again there, and then measures a few bytes off (94 for 97).
  const sql = `SELECT sum(bytes)::float8 AS used, count(*)::float8 AS rows, coalesce(array_agg(bytes) FILTER (WHERE changed), '{}') AS changed
                 FROM (SELECT ${heapPageOf(scope.ref)} AS page, ${rowBytes(scope.ref)} AS bytes,
                              ${scope.where === null ? 'false' : `(${scope.where})`} AS changed
                         FROM ${scope.from} TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (7) OFFSET 0) s
                GROUP BY page ORDER BY page`;
  const rows = (await optionalQuery(client, sql)) as Array<{ used: number; rows: number; changed: number[] }> | null;
  if (!rows) return null;
  const pages = rows.map((r) => ({ room: Math.max(0, HEAP_PAGE_SPACE - r.used), rows: r.rows, changed: r.changed.map(Number) }));
  const p = percent / 100;
  const expected = p * (heapBytes / 8192);
  const missing = Math.round(expected - pages.length - 2 * Math.sqrt(expected * (1 - p)));
  if (missing > 0 && pages.length > 0) {
    const step = (pages.length + missing) / missing;
    for (let i = 0; i < missing; i++) pages.splice(Math.min(pages.length, Math.floor(i * step)), 0, { room: HEAP_PAGE_SPACE, rows: 0, changed: [] });
  }
  return { pages, percent };
}

/**
 * Where the WHERE could not be evaluated on the sample (a join, a sub-query): the `share` of rows
 * the UPDATE changes, laid on the sampled pages, as the average row of each page. Rows found
 * together (a range of a key the heap is ordered by) fill whole pages from the first; others
 * spread evenly over all.
 */
export function spreadChanges(pages: ReadonlyArray<SampledPage & { rows: number }>, share: number, together: boolean): SampledPage[] {
  const used = (p: SampledPage & { rows: number }) => HEAP_PAGE_SPACE - p.room;
  const total = pages.reduce((sum, p) => sum + p.rows, 0);
  let left = Math.round(Math.min(1, Math.max(0, share)) * total);
  let carry = 0;
  return pages.map((p) => {
    const size = p.rows > 0 ? used(p) / p.rows : 0;
    let n: number;
    if (together) n = Math.min(p.rows, left);
    else {
      carry += share * p.rows;
      n = Math.min(p.rows, Math.floor(carry));
      carry -= n;
    }
    left -= n;
    return { room: p.room, changed: new Array<number>(n).fill(size) };
  });
}
