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
}

/**
 * A BRIN build reads every page and keeps each range's smallest and largest value: the min() and
 * max() of its columns over a page sample, timed on the target (EXPLAIN ANALYZE, READ ONLY). Only
 * plain columns of built-in types under the default operator class, without predicate: nothing
 * the user wrote is evaluated.
 */
export async function sampleBrin(
  client: FeatureClient,
  table: { name: string; oid: number; heap: number },
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
  return read ? { percent: sample.percent, ms: read.ms } : null;
}

/**
 * CREATE INDEX ... USING brin against its sample's min() and max() scaled to every page: on
 * PostgreSQL 15, a timestamptz column of 300k-600k rows of four widths, 1.35-1.52x.
 */
const BRIN_RATIO: MeasuredRatio = { point: 1.45, low: 1.1, high: 1.9 };

/** Below this a build is too short for the figure to matter (the server's own timing: no round trip in it). */
const MIN_BRIN_MS = 1;

/** A BRIN build's hold time from its sample's read on the target, scaled to the whole heap. */
export function withMeasuredBrin(estimate: HoldEstimate, sample: BrinSample): HoldEstimate {
  const ms = (sample.ms * 100) / sample.percent;
  if (ms < MIN_BRIN_MS) return estimate;
  const pct = percentText(sample.percent);
  return fromMeasurement(
    estimate,
    ms,
    BRIN_RATIO,
    `the smallest and largest value of a sample of ${pct}% of the table's pages read on the target in ${Math.round(sample.ms)} ms, scaled to every page (a BRIN build measured at 1.35-1.52x of such a figure)`,
  );
}
