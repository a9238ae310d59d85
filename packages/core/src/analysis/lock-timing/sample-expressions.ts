import { deparse } from '../../pg/deparse';
import { quoteQualified } from '../../pg/quote';
import type { AstNode } from '../ast';
import type { StatementFacts } from '../statement-facts';
import { type HoldEstimate, type MeasuredRatio, plusMeasurement } from './calibration';
import type { FeatureClient } from './live-table';
import { computedAgainstScan, percentText, samplePages } from './sample-pages';

/**
 * The values a rewrite computes for every row, as SQL over the table: the DEFAULT or stored
 * generated expression of each column it adds, and each type change's conversion (its USING
 * expression, else the column, cast to the new type). Identity and serial columns draw from a
 * sequence (a write), so they are left out; so is a statement that computes none.
 */
export function rewriteExpressions(facts: StatementFacts): string[] {
  try {
    return computedValues(facts);
  } catch {
    // A shape the deparser cannot print: nothing is sampled, the calibrated figure stands.
    return [];
  }
}

function computedValues(facts: StatementFacts): string[] {
  const out: string[] = [];
  for (const cmd of facts.subcommands) {
    const col = cmd.def?.ColumnDef as AstNode | undefined;
    if (!col) continue;
    if (cmd.subtype === 'AT_AddColumn') {
      for (const c of (col.constraints ?? []) as AstNode[]) {
        const con = c.Constraint as AstNode | undefined;
        if ((con?.contype === 'CONSTR_DEFAULT' || con?.contype === 'CONSTR_GENERATED') && con.raw_expr)
          out.push(deparse({ TypeCast: { arg: con.raw_expr, typeName: col.typeName } }));
      }
    } else if (cmd.subtype === 'AT_AlterColumnType' && typeof cmd.name === 'string') {
      const arg = (col.raw_default as AstNode | undefined) ?? { ColumnRef: { fields: [{ String: { sval: cmd.name } }] } };
      out.push(deparse({ TypeCast: { arg, typeName: col.typeName } }));
    }
  }
  return out;
}

/** The SELECT a rewrite's sample evaluates, for the live-expression gate: it calls what the sample will. */
export const rewriteExpressionShape = (table: string, expressions: readonly string[]): string =>
  `SELECT ${expressions.join(', ')} FROM ${quoteQualified(table)}`;

/** What computing a rewrite's new values cost on a page sample, timed by the target itself. */
export interface ExpressionSample {
  /** Percent of the table's pages sampled. */
  percent: number;
  rows: number;
  /** Execution time of the sample's scan with the values computed, ms. */
  computedMs: number;
  /** Execution time of the same scan computing nothing, ms. */
  scanMs: number;
}

/** Fewer rows than this say little about a per-row cost. */
const MIN_SAMPLE_ROWS = 2_000;

/**
 * Computes the rewrite's new values over a page sample (at most `sampleBytes` of the heap,
 * `REPEATABLE`, the same pages for both queries) and times that against the same scan computing
 * nothing (EXPLAIN ANALYZE: each row's values are computed, none is sent). The expressions must
 * have passed the live-expression gate: they are evaluated, in the caller's READ ONLY transaction
 * and under its statement_timeout.
 */
export async function sampleExpressions(
  client: FeatureClient,
  table: string,
  heapBytes: number,
  expressions: readonly string[],
  sampleBytes: number,
): Promise<ExpressionSample | null> {
  if (!expressions.length) return null;
  const { percent, from } = samplePages(table, heapBytes, sampleBytes);
  const timed = await computedAgainstScan(client, from, expressions);
  return timed && timed.rows >= MIN_SAMPLE_ROWS ? { percent, ...timed } : null;
}

/**
 * A rewrite against what computing its values took on the sample, scaled to the table (the
 * calibrated copy already holds a cheap value per row, a random() or an integer widened): on
 * PostgreSQL 15, 900k rows, a gen_random_uuid() default and a USING round(...::numeric, 3) each
 * added 1.2-1.4x the sample's figure to the rewrite.
 */
const EXPRESSION_RATIO: MeasuredRatio = { point: 1.25, low: 0.8, high: 1.9 };

/**
 * Below this (at the calibration machine's speed) the values cost what the calibrated copy already
 * counts: a slower target (`machineFactor`, its probe against the calibration's) raises it as it
 * raises that copy's price (a random() default over 100k rows sampled at 21 ms on a target probed
 * 2.2x slow, 9 at rest).
 */
const MIN_EXPRESSION_MS = 20;

/** The rewrite's hold time with the cost of computing its new values, measured on a sample, added. */
export function withMeasuredExpressions(estimate: HoldEstimate, sample: ExpressionSample, machineFactor: number | null = null): HoldEstimate {
  const ms = (Math.max(0, sample.computedMs - sample.scanMs) * 100) / sample.percent;
  if (ms < MIN_EXPRESSION_MS * Math.max(1, machineFactor ?? 1)) return estimate;
  const pct = percentText(sample.percent);
  return plusMeasurement(
    estimate,
    ms,
    EXPRESSION_RATIO,
    `the new values computed for every row: about ${Math.round(ms)} ms, from a sample of ${pct}% of the table (${sample.rows.toLocaleString('en-US')} rows) computed on the target`,
  );
}
