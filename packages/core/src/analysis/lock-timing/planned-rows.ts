import { type FeatureClient, optionalQuery } from './live-table';
import { seqScanCost } from './timing-class';

/**
 * An index scan returning this many times the rows its filter keeps is costed as a scan: from
 * twice, the rows it reads and drops cost as much as the rows changed. (At four, estimates of 375k
 * read for 94k kept fell either side of the line from one ANALYZE to the next, and a DELETE that
 * read a quarter of a table to change nothing was priced at 1 ms.)
 */
export const FILTERED_INDEX_RATIO = 2;

/** An index read whose filter drops most of what it reads: the index, and the rows it reads. */
export interface FilteredRead {
  index: string;
  rows: number;
}

/**
 * What a filtered index read costs, in a sequential scan's units (`seqScanCost`: a page, and a
 * hundredth of one a row): the heap pages its `readRows` lie on, and a tuple each. Rows of a key
 * the heap is ordered by (`together`) lie in a run of pages; others land on pages at random,
 * each page read once by a bitmap scan (`blockOrder`: its pages sorted), each row its own page by
 * a plain index scan. The planner's own cost assumes the random case for every bitmap scan (it
 * never reads the key's correlation there): set V's DELETE of a fifth of a key range of 62k
 * rows on 757 pages was costed 18,810, as if it read most of the table's 12,400 pages.
 */
export function filteredReadCost(o: {
  heapBytes: number;
  rows: number;
  readRows: number;
  together: boolean;
  blockOrder: boolean;
  /** The pages the kept rows were counted on, with `touchedRows` of them (null: not counted). */
  touchedPages?: number | null;
  touchedRows?: number;
}): number {
  const pages = Math.max(1, o.heapBytes / 8192);
  const perPage = Math.max(1, o.rows / pages);
  const read = Math.max(0, o.readRows);
  // The pages `n` rows landing at random cover.
  const landing = (n: number) => pages * (1 - Math.exp(-n / pages));
  // Kept rows counted on far fewer pages than rows spread at random would take lie together,
  // whatever the key's correlation says (updates since the load moved some rows away): the range
  // spans at least those pages.
  const counted = o.touchedPages ?? null;
  let pagesRead: number;
  if (counted !== null && counted > 0 && counted < landing(o.touchedRows ?? 0) / 2) pagesRead = Math.min(pages, Math.max(counted, read / perPage));
  else if (o.together) pagesRead = Math.min(pages, read / perPage);
  else pagesRead = o.blockOrder ? landing(read) : read;
  return seqScanCost(pagesRead * 8192, read);
}

/**
 * Rows a DML statement's WHERE selects and the cost of finding them, as the target's planner
 * estimates them for `shape` (its SELECT, `dmlWhereShape` in live-features.ts; EXPLAIN: ACCESS SHARE only), and
 * the index that finds them when it reads no more than it keeps.
 */
export async function plannedRows(
  client: FeatureClient,
  shape: string,
): Promise<{ rows: number; cost: number; byScan: boolean; index: string | null; blockOrder: boolean; filteredRead: FilteredRead | null } | null> {
  // A shape the target cannot plan (it names a column an earlier statement of the migration
  // adds) leaves no figure, and the transaction usable.
  const explained = await optionalQuery(client, `EXPLAIN (FORMAT JSON) ${shape}`);
  if (!explained) return null;
  try {
    type Node = {
      'Node Type'?: string;
      'Plan Rows'?: number;
      'Total Cost'?: number;
      'Index Cond'?: string;
      'Index Name'?: string;
      Plans?: Node[];
    };
    const plan = ((explained[0] as Record<string, unknown>)?.['QUERY PLAN'] as Array<{ Plan?: Node }>)?.[0]?.Plan;
    // A sequential scan's filter reads every row (the planner's cost is the scan's); an index or
    // bitmap scan reads a key range.
    let scan: Node | undefined = plan;
    while (scan?.Plans?.length && /^(Gather|Limit|Result)/.test(scan['Node Type'] ?? '')) scan = scan.Plans[0];
    // A partitioned table's plan appends one scan per partition it cannot prune: the rows are
    // found by a full scan when any partition is read whole, else by the first one's index.
    if (/^(Merge )?Append/.test(scan?.['Node Type'] ?? '') && scan?.Plans?.length) {
      const parts: Node[] = scan.Plans.map((p) => (/^Gather/.test(p['Node Type'] ?? '') && p.Plans?.[0] ? p.Plans[0] : p));
      scan = parts.find((p) => /Seq Scan/.test(p['Node Type'] ?? '')) ?? parts[0];
    }
    // An index scan without an Index Cond (an index-only scan of a vacuumed table, its filter
    // on every entry: `id % 10 = 0` over the primary key) reads the whole index: a full scan too.
    const type = scan?.['Node Type'] ?? '';
    // A join (UPDATE ... FROM, DELETE ... USING) is taken as reading its target whole.
    const joined = /Join|Nested Loop/.test(type);
    const byScan = joined || /Seq Scan/.test(type) || (/^Index (Only )?Scan/.test(type) && !scan?.['Index Cond']);
    // The index that finds the rows (a bitmap scan names it on its child).
    let indexed: Node | undefined = scan;
    while (indexed && !indexed['Index Name'] && indexed.Plans?.length) indexed = indexed.Plans[0];
    const index = byScan ? null : (indexed?.['Index Name'] ?? null);
    if (typeof plan?.['Plan Rows'] !== 'number') return null;
    // An index that returns many times the rows the filter keeps (`status = 'open'` for 14 % of
    // the table, then `price < 20`) costs its scan, as a sequential scan does, not the rows changed.
    const filtered = index !== null && (indexed?.['Plan Rows'] ?? 0) > FILTERED_INDEX_RATIO * Math.max(1, plan['Plan Rows']);
    // An index scan reaches the rows in the key's order; a scan, a bitmap scan (its pages sorted)
    // or a join reading the target whole, in block order.
    const blockOrder = byScan || !/^Index (Only )?Scan/.test(type);
    return {
      rows: plan['Plan Rows'],
      cost: Number(plan['Total Cost'] ?? 0),
      byScan: byScan || filtered,
      index: filtered ? null : index,
      blockOrder,
      filteredRead: filtered && index !== null ? { index, rows: indexed?.['Plan Rows'] ?? 0 } : null,
    };
  } catch {
    return null;
  }
}
