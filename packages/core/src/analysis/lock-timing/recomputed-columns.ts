import { type HoldEstimate, type MeasuredRatio, plusMeasurement } from './calibration';
import { FIRST_USER_OID, type FeatureClient } from './live-table';
import { computedAgainstScan, samplePages } from './sample-pages';

/** A stored generated column: its expression as `pg_get_expr` prints it, and the columns it reads. */
export interface GeneratedColumn {
  name: string;
  expression: string;
  reads: string[];
  /**
   * The expression depends on nothing but built-in objects (functions, operators, types,
   * collations, text search configurations below PostgreSQL's first user OID) and the table's
   * own columns. A generated column may only call IMMUTABLE functions, and a built-in one so
   * marked has no side effect: such an expression may be computed on the target. An extension's
   * or a user's function may claim IMMUTABLE and still write, so those are never computed.
   */
  builtin: boolean;
}

/**
 * The SQL that reads the stored generated columns of table `oid` as {@link GeneratedColumn}s, with
 * the columns each expression depends on (`pg_depend`, the column itself left out).
 */
export const storedGeneratedColumnsQuery = (oid: number): string =>
  `SELECT a.attname::text AS name, pg_get_expr(d.adbin, d.adrelid) AS expression,
          ARRAY(SELECT r.attname::text FROM pg_depend dep JOIN pg_attribute r ON r.attrelid = dep.refobjid AND r.attnum = dep.refobjsubid
                 WHERE dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid AND dep.refobjid = a.attrelid
                   AND dep.refobjsubid > 0 AND dep.refobjsubid <> a.attnum) AS reads,
          NOT EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid
                         AND dep.refobjid >= ${FIRST_USER_OID} AND NOT (dep.refclassid = 'pg_class'::regclass AND dep.refobjid = a.attrelid)) AS builtin
     FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = ${Math.trunc(oid)} AND a.attgenerated = 's' AND NOT a.attisdropped
    ORDER BY a.attnum`;

/**
 * The generated columns an UPDATE that sets `assigned` computes again for each row it changes:
 * those whose expression reads a column it sets. PostgreSQL (13 and later) leaves the others as
 * they are; measured on PostgreSQL 15, an UPDATE of another column paid nothing for a
 * `to_tsvector` that cost an UPDATE of its input 60 us a row.
 */
export const recomputedBy = (columns: readonly GeneratedColumn[], assigned: ReadonlySet<string>): GeneratedColumn[] =>
  columns.filter((c) => c.reads.some((r) => assigned.has(r)));

/** What computing the recomputed columns cost on rows of a page sample, timed by the target itself. */
export interface RecomputeSample {
  columns: string[];
  rows: number;
  /** Execution time of the rows' read with the expressions computed, ms. */
  computedMs: number;
  /** Execution time of the same read computing nothing, ms. */
  scanMs: number;
}

/**
 * Rows the sample computes the expressions on: a first read of {@link FIRST_ROWS}, and when that
 * took little, {@link MORE_ROWS} for a per-row figure above the timer's noise. An expensive
 * expression (a `to_tsvector` of a 900-byte text: 80 us a row) stops at the first read: 4,000
 * such rows cost the analysis 330 ms (set Y-B's table, measured), 1,000 about 80.
 */
const FIRST_ROWS = 1_000;
const MORE_ROWS = 4_000;
/** Computing the first rows took at least this: their per-row figure stands. */
const ENOUGH_MS = 20;
const MIN_SAMPLE_ROWS = 500;

/** The expressions computed on the first `rows` rows of the page sample, and the same read alone. */
async function timedRows(client: FeatureClient, from: string, columns: readonly GeneratedColumn[], rows: number): Promise<RecomputeSample | null> {
  const read = `(SELECT * FROM ${from} LIMIT ${rows}) AS dbops_r`;
  const timed = await computedAgainstScan(
    client,
    read,
    columns.map((c) => c.expression),
  );
  return timed && timed.rows >= MIN_SAMPLE_ROWS ? { columns: columns.map((c) => c.name), ...timed } : null;
}

/**
 * Computes `columns`' expressions over the first rows of a page sample (`REPEATABLE`, the same rows
 * for both queries) and times that against the same read computing nothing, in the caller's READ
 * ONLY transaction and under its statement_timeout. Only `builtin` expressions are computed.
 */
export async function sampleRecompute(
  client: FeatureClient,
  table: string,
  heapBytes: number,
  columns: readonly GeneratedColumn[],
  sampleBytes: number,
): Promise<RecomputeSample | null> {
  if (!columns.length || columns.some((c) => !c.builtin)) return null;
  const { from } = samplePages(table, heapBytes, sampleBytes);
  const first = await timedRows(client, from, columns, FIRST_ROWS);
  if (!first || first.computedMs - first.scanMs >= ENOUGH_MS || first.rows < FIRST_ROWS) return first;
  return (await timedRows(client, from, columns, MORE_ROWS)) ?? first;
}

/**
 * An UPDATE's time beyond the same UPDATE of a table without the generated column, against the
 * sample's per-row figure times the rows changed: on PostgreSQL 15, a quarter of 100k-300k rows,
 * `to_tsvector` of long and short texts, a regexp_replace and text functions stored as 512
 * characters, 1.03-1.97x over two runs (the widest stored values cost most beside their computation).
 */
const RECOMPUTE_RATIO: MeasuredRatio = { point: 1.25, low: 0.9, high: 2.1 };

/** Below this the recompute is lost in what the calibrated UPDATE already prices. */
const MIN_RECOMPUTE_MS = 10;

/** An UPDATE's hold time with its generated columns' recompute, measured on a sample, added. */
export function withRecomputedColumns(estimate: HoldEstimate, sample: RecomputeSample, touchedRows: number): HoldEstimate {
  const ms = (Math.max(0, sample.computedMs - sample.scanMs) / sample.rows) * touchedRows;
  if (ms < MIN_RECOMPUTE_MS) return estimate;
  const names = sample.columns.join(', ');
  return plusMeasurement(
    estimate,
    ms,
    RECOMPUTE_RATIO,
    `the stored generated column${sample.columns.length > 1 ? 's' : ''} ${names} computed again for each changed row: about ${Math.round(ms)} ms, from ${sample.rows.toLocaleString('en-US')} sampled rows computed on the target`,
  );
}
