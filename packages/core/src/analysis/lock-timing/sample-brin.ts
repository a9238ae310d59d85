import { quoteIdent } from '../../pg/quote';
import { fromMeasurement, type HoldEstimate, type MeasuredRatio } from './calibration';
import { FIRST_USER_OID, type FeatureClient } from './live-table';
import { percentText, samplePages, serverTiming } from './sample-pages';
import type { BuiltIndex } from './timing-class';

/** A page sample's read of a BRIN index's columns, timed by the target. */
export interface BrinSample {
  percent: number;
  /** Execution time of the sample's min() and max() of each column, ms. */
  ms: number;
  /** The table's rows a heap page (`reltuples` over its pages): what the build's time and the sample's part on. */
  perPage: number;
}

/**
 * A BRIN build reads every page and keeps each range's smallest and largest value: the min() and
 * max() of its columns over a page sample, timed on the target (EXPLAIN ANALYZE, READ ONLY). Only
 * plain columns of built-in types under the default operator class, without predicate: nothing
 * the user wrote is evaluated.
 */
export async function sampleBrin(
  client: FeatureClient,
  table: { name: string; oid: number; heap: number; rows: number },
  index: BuiltIndex,
  hasPredicate: boolean,
  sampleBytes: number,
): Promise<BrinSample | null> {
  if (index.method !== 'brin' || hasPredicate || !index.params.length || index.params.some((p) => !p.column || p.opclass)) return null;
  const columns = index.params.map((p) => p.column!);
  const res = await client.query(
    `SELECT count(*)::int AS n FROM pg_attribute a WHERE a.attrelid = $1 AND a.attname = ANY ($2) AND NOT a.attisdropped AND a.atttypid < ${FIRST_USER_OID}`,
    [table.oid, columns],
  );
  if (Number((res.rows[0] as { n?: number } | undefined)?.n ?? 0) !== new Set(columns).size) return null;
  const sample = samplePages(table.name, table.heap, sampleBytes);
  const list = columns.flatMap((c) => [`min(${quoteIdent(c)})`, `max(${quoteIdent(c)})`]).join(', ');
  const read = await serverTiming(client, `SELECT ${list} FROM ${sample.from}`);
  return read ? { percent: sample.percent, ms: read.ms, perPage: table.rows / Math.max(1, table.heap / 8192) } : null;
}

/**
 * CREATE INDEX ... USING brin against its sample's min() and max() scaled to every page, by rows a
 * page: the sample reads its pages out of order, the build in order, so a table of few rows a page
 * builds in less than its scaled sample and one of many in more, levelling off (`bench/brin-ratio.ts`,
 * PostgreSQL 15, six tables of our own of 18-185 rows a page, 37-319 MB, two runs: 0.62-0.96 at 18
 * rows a page, 0.79-0.91 at 40, 1.16-1.43 at 88, 1.37-1.38 at 185; the runs fitted -0.14 + 0.30
 * and 0.02 + 0.275 x ln(rows a page), taken between). One ratio of 1.45, measured on narrow
 * tables alone, read set AH's listings (15-35 rows a page) x1.5-1.8 over.
 */
const BRIN_RATIO_BASE = -0.06;
const BRIN_RATIO_PER_LOG_ROW = 0.29;

/** The ratio at a table's rows a page (base + per log row x ln(rows a page)), within what was measured, with the spread its runs had. */
export function brinRatio(perPage: number): MeasuredRatio {
  const point = Math.min(1.5, Math.max(0.6, BRIN_RATIO_BASE + BRIN_RATIO_PER_LOG_ROW * Math.log(Math.max(1, perPage))));
  return { point, low: point * 0.75, high: point * 1.3 };
}

/** Below this a build is too short for the figure to matter (the server's own timing: no round trip in it). */
const MIN_BRIN_MS = 1;

/** A BRIN build's hold time from its sample's read on the target, scaled to the whole heap. */
export function withMeasuredBrin(estimate: HoldEstimate, sample: BrinSample): HoldEstimate {
  const ms = (sample.ms * 100) / sample.percent;
  if (ms < MIN_BRIN_MS) return estimate;
  const pct = percentText(sample.percent);
  const ratio = brinRatio(sample.perPage);
  return fromMeasurement(
    estimate,
    ms,
    ratio,
    `the smallest and largest value of a sample of ${pct}% of the table's pages read on the target in ${Math.round(sample.ms)} ms, scaled to every page (a BRIN build measured at ${ratio.point.toFixed(2)}x of such a figure at ${Math.round(sample.perPage)} rows a page)`,
  );
}
