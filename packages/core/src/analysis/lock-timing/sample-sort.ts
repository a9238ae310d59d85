import { deparse } from '../../pg/deparse';
import { quoteIdent, quoteQualified } from '../../pg/quote';
import { type AstNode, nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import { fromMeasurement, type HoldEstimate, type MeasuredRatio, plusMeasurement } from './calibration';
import { columnType, FIRST_USER_OID, type FeatureClient, optionalQuery } from './live-table';
import { percentText, samplePages, serverTiming } from './sample-pages';
import { duj1Distinct, sampledKeyCounts } from './distinct-keys';
import type { BuiltIndex } from './timing-class';

/**
 * Operator classes that order text byte by byte, as `COLLATE "C"` does: a key under one is sorted
 * in the sample under that collation, which compares the same way.
 */
const BYTEWISE_OPCLASSES = new Set(['text_pattern_ops', 'varchar_pattern_ops']);

/**
 * What a btree build sorts, as SQL over the table: its keys (columns or expressions, with their
 * COLLATE, or `COLLATE "C"` under a bytewise operator class), its INCLUDE columns (carried in
 * every tuple) and its predicate; a build CONCURRENTLY sorts the same (and then scans again:
 * `CONCURRENT_SORT_RATIO`). Null for builds this cannot stand for: another access method, or
 * another operator class of its own (one that compares otherwise than ORDER BY can be told to).
 */
export interface IndexSortShape {
  keys: string[];
  carried: string[];
  where: string | null;
}

export function indexSortShape(stmt: ParsedStatement, index: BuiltIndex | null): IndexSortShape | null {
  if (!index || index.method !== 'btree' || index.params.some((p) => p.opclass && !BYTEWISE_OPCLASSES.has(p.opclass))) return null;
  if (nodeKind(stmt.stmt) !== 'IndexStmt') {
    // A PRIMARY KEY or UNIQUE constraint's index: its columns.
    const columns = index.params.map((p) => p.column);
    return columns.every((c): c is string => !!c) ? { keys: columns.map(quoteIdent), carried: [], where: null } : null;
  }
  const b = nodeBody(stmt.stmt);
  // builtIndex read each key's column and COLLATE; an expression key is read here, in its order.
  const elems = (b.indexParams ?? []) as AstNode[];
  const keys = index.params.map((p, i) => {
    const key = p.column ? quoteIdent(p.column) : `(${deparse(elems[i]?.IndexElem?.expr as AstNode)})`;
    const collation = p.opclass ? 'C' : p.collation;
    return collation ? `${key} COLLATE ${quoteIdent(collation)}` : key;
  });
  const carried = ((b.indexIncludingParams ?? []) as AstNode[]).flatMap((p) => {
    const name = (p.IndexElem as AstNode | undefined)?.name;
    return name ? [quoteIdent(String(name))] : [];
  });
  const where = b.whereClause ? deparse(b.whereClause as AstNode) : null;
  return keys.length ? { keys, carried, where } : null;
}

/** The SELECT of a build's keys, for the live-expression gate: it calls what the sample sort will. */
export function indexSortGateShape(shape: IndexSortShape, table: string): string {
  return `SELECT ${[...shape.keys, ...shape.carried].join(', ')} FROM ${quoteQualified(table)}${shape.where ? ` WHERE ${shape.where}` : ''}`;
}

/** A sort of a sample of the rows a build takes in, timed by the target itself. */
export interface SortSample {
  /** Percent of the table's pages sampled. */
  percent: number;
  /** Rows the sample sorted (those the predicate keeps). */
  rows: number;
  /** Execution time of the sort of the sample, ms (its scan included). */
  sortMs: number;
  /** Execution time of the sample's scan alone (with the predicate), ms. */
  scanMs: number;
  /** A CREATE INDEX's sample only: distinct keys among the build's rows, estimated from a smaller sample (`buildSortMs`). */
  distinct?: number;
  /** |correlation| of the build's first key with the heap order, where statistics say it (`buildSortMs`). */
  keyOrder?: number;
}

/** Fewer sorted rows than this say little about a build's sort. */
const MIN_SAMPLE_ROWS = 2_000;

/**
 * Sorts a page sample (at most `sampleBytes` of the heap, `REPEATABLE`) of the build's rows on the
 * target, with `work_mem` at the server's `maintenance_work_mem` as CREATE INDEX sorts, and times
 * it and its scan alone with EXPLAIN ANALYZE (READ ONLY, under the caller's statement_timeout).
 * The shape must have passed the live-expression gate: its keys and predicate are evaluated.
 */
export async function sampleSort(
  client: FeatureClient,
  table: string,
  heapBytes: number,
  shape: IndexSortShape,
  sampleBytes: number,
  options: { distinct?: boolean; keyOrder?: number | null } = {},
): Promise<SortSample | null> {
  const fromOf = (bytes: number) => {
    const sample = samplePages(table, heapBytes, bytes);
    return { percent: sample.percent, from: `${sample.from}${shape.where ? ` WHERE ${shape.where}` : ''}` };
  };
  const { percent, from } = fromOf(sampleBytes);
  const sorted = await timedSort(client, percent, from, [...shape.keys, ...shape.carried].join(', '), shape.keys.join(', '));
  if (!sorted || !options.distinct) return sorted;
  // Grouping is a second pass over the rows: on a quarter of the sample (Duj1 tells a key of a
  // value a row from one of a few values on far fewer rows than a sort needs to be timed).
  const quarter = fromOf(sampleBytes * DISTINCT_SAMPLE_SHARE);
  const counts = await sampledKeyCounts(client, quarter.from, shape.keys);
  if (!counts || counts.rows <= 0) return sorted;
  const buildRows = sorted.rows * (100 / percent);
  const distinct = duj1Distinct(counts.rows, counts.distinct, counts.once, buildRows);
  return { ...sorted, distinct, ...(typeof options.keyOrder === 'number' ? { keyOrder: options.keyOrder } : {}) };
}

/** The share of the sort sample's bytes whose keys are grouped to estimate the distinct keys. */
const DISTINCT_SAMPLE_SHARE = 0.25;

/**
 * Times `SELECT list FROM from ORDER BY order` and the scan alone (`count(*)` over the same FROM)
 * with EXPLAIN ANALYZE, `work_mem` at the server's `maintenance_work_mem` as an index build sorts.
 */
async function timedSort(client: FeatureClient, percent: number, from: string, list: string, order: string): Promise<SortSample | null> {
  // work_mem is raised under a savepoint of its own, and rolled back to it after: the caller's
  // transaction goes on with its own setting.
  await client.query('SAVEPOINT dbops_sort');
  try {
    if (!(await optionalQuery(client, `SELECT set_config('work_mem', current_setting('maintenance_work_mem'), true)`))) return null;
    const scanned = await serverTiming(client, `SELECT count(*) FROM ${from}`);
    const sorted = await serverTiming(client, `SELECT ${list} FROM ${from} ORDER BY ${order}`);
    if (!scanned || !sorted || sorted.rows < MIN_SAMPLE_ROWS) return null;
    const [rows, sortMs, scanMs] = [sorted.rows, sorted.ms, scanned.ms];
    return { percent, rows, sortMs, scanMs };
  } finally {
    await client.query('ROLLBACK TO SAVEPOINT dbops_sort').catch(() => undefined);
    await client.query('RELEASE SAVEPOINT dbops_sort').catch(() => undefined);
  }
}

/** Whether `column` of table `oid` is an array of a built-in type (its elements compared by PostgreSQL's own functions). */
async function builtinArray(client: FeatureClient, oid: number, column: string): Promise<boolean> {
  const t = await columnType(client, oid, column);
  return t !== null && t.category === 'A' && t.elem !== 0 && t.elem < FIRST_USER_OID;
}

/**
 * A GIN build on an array column gathers every element of every row and inserts them in order:
 * the elements of a page sample, sorted on the target as `sampleSort` sorts a btree's keys
 * (`rows` are then the elements). Only a plain column, without predicate or operator class of its
 * own, of a built-in array type: nothing the user wrote is evaluated.
 */
export async function sampleGinArray(
  client: FeatureClient,
  table: { name: string; oid: number; heap: number },
  index: BuiltIndex,
  hasPredicate: boolean,
  sampleBytes: number,
): Promise<SortSample | null> {
  const [param] = index.params;
  if (index.method !== 'gin' || index.params.length !== 1 || !param?.column || param.opclass || hasPredicate) return null;
  if (!(await builtinArray(client, table.oid, param.column))) return null;
  const sample = samplePages(table.name, table.heap, sampleBytes, 'dbops_t');
  return timedSort(client, sample.percent, `${sample.from}, unnest(dbops_t.${quoteIdent(param.column)}) dbops_e`, 'dbops_e', 'dbops_e');
}

/**
 * CREATE INDEX against the sample's sort scaled to the whole table (the sort by n log n, the
 * scan by the pages), on PostgreSQL 15 for seven keys (random and ordered integers, timestamptz,
 * libc text, uuid, jsonb, two columns) at 300k and 1M rows of two widths: 0.66-1.44x.
 */
const SORT_RATIO: MeasuredRatio = { point: 1, low: 0.6, high: 1.6 };

/** The build's time from the sample: its rows scaled up, its sort by n log n, its scan by the share of pages. */
export function scaledSortMs(sample: SortSample): { ms: number; rows: number } {
  const scale = 100 / sample.percent;
  const rows = sample.rows * scale;
  const nlogn = (n: number) => n * Math.log2(Math.max(2, n));
  const sort = Math.max(0, sample.sortMs - sample.scanMs) * (nlogn(rows) / nlogn(sample.rows));
  return { ms: sort + sample.scanMs * scale, rows };
}

/**
 * A GIN build on an array against its sample's elements sorted and scaled (as `scaledSortMs`): on
 * PostgreSQL 15, int[] and text[] columns of 2-8 elements, 300k-600k rows, 0.68-1.42x.
 */
const GIN_ARRAY_RATIO: MeasuredRatio = { point: 1, low: 0.6, high: 1.6 };

/** A GIN build on an array column's hold time from its sampled elements sorted on the target. */
export function withMeasuredGinArray(estimate: HoldEstimate, sample: SortSample): HoldEstimate {
  const { ms, rows } = scaledSortMs(sample);
  const pct = percentText(sample.percent);
  return fromMeasurement(
    estimate,
    ms,
    GIN_ARRAY_RATIO,
    `the elements of a sample of ${pct}% of the table (${Math.round(sample.rows).toLocaleString('en-US')}) sorted on the target in ${Math.round(sample.sortMs)} ms, scaled to about ${Math.round(rows).toLocaleString('en-US')} entries (a GIN build measured at 0.68-1.42x of such a figure)`,
  );
}

/**
 * The time a btree build compares equal keys, per comparison, us: measured on PostgreSQL 15 on a
 * 2-core Intel Xeon VM (the builds below), fitted by least squares over the keys with repeated
 * values. Not carried by the sample: a machine of another speed shifts it.
 */
const TIED_COMPARISON_US = 0.0117;

/**
 * A btree build's sort from its sample. The build breaks ties between equal keys by heap position,
 * so it sorts equal keys as fully as distinct ones: about log2(rows / distinct keys) more
 * comparisons a row than ORDER BY makes, which sets equal keys aside (a three-way quicksort). Those
 * are added to the sample's figure at `TIED_COMPARISON_US` each, in the share of the key's disorder
 * in the heap (1 - |correlation|): rows read in key order come presorted by key and position, and
 * the sort finds them so (an int of 2-1,000 values in heap order built at 1.29-1.39x of the
 * sample's figure, the same values in no order at 1.67-2.52x). On PostgreSQL 15, int, timestamptz,
 * numeric and text keys of 2 to 1,000 values and of a value a row, an expression and two columns,
 * at 300k, 900k and 2M rows, in no order: builds at 0.74-1.34x of this figure, where the sample's
 * sort alone put them at 0.74-2.57x (2.0-2.6x for an int or a numeric of 13 values).
 */
export function buildSortMs(sample: SortSample): { ms: number; rows: number } {
  const plain = scaledSortMs(sample);
  if (sample.distinct === undefined || sample.distinct <= 0) return plain;
  const rounds = Math.max(0, Math.log2(plain.rows / Math.max(1, sample.distinct)));
  const disorder = 1 - Math.min(1, sample.keyOrder ?? 0);
  return { ms: plain.ms + (plain.rows * rounds * disorder * TIED_COMPARISON_US) / 1000, rows: plain.rows };
}

/**
 * A btree build's hold time from its sample sorted on the target: the real keys, collation and
 * machine, which the calibrated key classes only approximate (and whose speed the probe does
 * not carry between machines: docs/benchmarks.md, sixth round).
 */
export function withMeasuredSort(estimate: HoldEstimate, sample: SortSample, concurrently = false): HoldEstimate {
  const { ms, rows } = buildSortMs(sample);
  const tied = ms - scaledSortMs(sample).ms;
  const pct = percentText(sample.percent);
  const ties =
    sample.distinct !== undefined && tied > 0
      ? `, and about ${Math.round(sample.distinct).toLocaleString('en-US')} distinct keys (the build sorts equal keys by heap position: ${Math.round(tied)} ms more)`
      : '';
  return fromMeasurement(
    estimate,
    ms,
    concurrently ? CONCURRENT_SORT_RATIO : SORT_RATIO,
    `a sample of ${pct}% of the table (${Math.round(sample.rows).toLocaleString('en-US')} rows) sorted on the target in ${Math.round(sample.sortMs)} ms, scaled to about ${Math.round(rows).toLocaleString('en-US')} rows${ties} (${concurrently ? 'a build CONCURRENTLY measured at 1.06-2.99x' : 'a build measured at 0.66-1.44x'} of such a figure)`,
  );
}

/**
 * CREATE INDEX CONCURRENTLY against the same scaled sample sort: it builds as CREATE INDEX does,
 * then scans the index and the heap again to add what changed meanwhile (and waits for older
 * transactions, none in the measurement). On PostgreSQL 15, five keys (an ordered bigint, a
 * random int, md5 text, a random timestamptz, int and timestamptz together) at 300k and 1M rows:
 * 1.06-2.99x, 1.8 as the geometric mean; 1.17-1.58x the plain build of the same key. The
 * calibrated class it replaces ran over on 19 of the 27 concurrent builds timed in the held-out
 * sets' runs of 2026-11-28/29 (x1.07-2.62), short on 8 (x1.07-1.73).
 */
const CONCURRENT_SORT_RATIO: MeasuredRatio = { point: 1.8, low: 1, high: 3.2 };

/** At most this many of a rewrite's indexes are sampled; the rest keep the calibrated rebuild price. */
const MAX_REBUILD_SAMPLES = 8;

/**
 * The btree indexes a rewrite of table `oid` rebuilds (each a new build: a scan of the new heap
 * and a sort), as sort shapes, for those a sample can stand for: plain columns of built-in types
 * under their default operator classes and the column's own collation, no predicate. Only
 * catalog facts reach the sample's SQL (quoted names), and a built-in type's comparison is
 * PostgreSQL's own: nothing the user wrote is evaluated, so no gate is needed.
 */
export async function rebuildSortShapes(client: FeatureClient, oid: number): Promise<IndexSortShape[]> {
  const res = await client.query(
    `SELECT json_agg(a.attname::text ORDER BY k.ord) FILTER (WHERE k.ord <= x.indnkeyatts) AS keys,
            coalesce(json_agg(a.attname::text ORDER BY k.ord) FILTER (WHERE k.ord > x.indnkeyatts), '[]') AS carried,
            bool_and(a.attnum IS NOT NULL AND a.atttypid < ${FIRST_USER_OID}
                     AND (k.ord > x.indnkeyatts OR (opc.opcdefault AND coalesce(x.indcollation[k.ord - 1], 0) IN (0, a.attcollation)))) AS plain
       FROM pg_index x
       JOIN pg_class ic ON ic.oid = x.indexrelid
       JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
       CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
       LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum AND k.attnum > 0
       LEFT JOIN pg_opclass opc ON opc.oid = x.indclass[k.ord - 1]
      WHERE x.indrelid = $1 AND x.indpred IS NULL AND x.indexprs IS NULL
      GROUP BY x.indexrelid, x.indnkeyatts
      ORDER BY x.indexrelid`,
    [oid],
  );
  const rows = res.rows as Array<{ keys: string[] | null; carried: string[]; plain: boolean | null }>;
  return rows
    .filter((r) => r.plain && r.keys?.length)
    .slice(0, MAX_REBUILD_SAMPLES)
    .map((r) => ({ keys: r.keys!.map(quoteIdent), carried: r.carried.map(quoteIdent), where: null }));
}

/**
 * A rewrite's hold time with its sampled btree rebuilds measured: `rest` is the calibrated figure
 * for all but those indexes (the heap copied, TOAST, the other indexes), each sample's build
 * (sort and scan of the new heap, as `scaledSortMs`) is added at the ratio a CREATE INDEX was
 * measured at, and the two ranges add up.
 */
export function withMeasuredRebuilds(rest: HoldEstimate, samples: readonly SortSample[]): HoldEstimate {
  if (!samples.length) return rest;
  const builds = samples.reduce((sum, s) => sum + scaledSortMs(s).ms, 0);
  return plusMeasurement(
    rest,
    builds,
    SORT_RATIO,
    `${samples.length} btree index(es) rebuilt, priced from samples of their keys sorted on the target: about ${Math.round(builds)} ms together`,
  );
}
