import { type AstNode, nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import { type Calibration, CALIBRATION, fromMeasurement, type HoldEstimate, type MeasuredRatio, predictHold } from './calibration';
import { withMeasuredDmlScan } from './dml-scan';
import { type CountLimits, liveFeatures } from './live-features';
import { lockHolders, queueWarning, type QueueClient } from './lock-queue';
import { machineProbe } from './machine-probe';
import { withMeasuredExpressions } from './sample-expressions';
import { withRecomputedColumns } from './recomputed-columns';
import { withMeasuredBrin } from './sample-brin';
import { withMeasuredGinArray, withMeasuredRebuilds, withMeasuredSort } from './sample-sort';
import type { TimingClass } from './timing-class';

export interface StatementLockTiming {
  statementIndex: number;
  /** Calibrated hold time on the target, or null (no table lock, table created by the migration, class not calibrated). */
  estimate: HoldEstimate | null;
  /** `[lock-timing]` and `[lock-queue]` texts for the statement's warnings. */
  warnings: string[];
}

export interface LiveLockTimingReport {
  probeMs: number | null;
  machineFactor: number | null;
  statements: StatementLockTiming[];
}

/** Row triggers are opaque to dbops: the range widens by this much when the DML fires any. */
const TRIGGER_SPREAD = 1.5;

const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);

/** `SET [LOCAL] lock_timeout = ...` of the migration before statement `index`, in ms (null: none set). */
export function lockTimeoutBefore(parsed: readonly ParsedStatement[], index: number): number | null {
  let ms: number | null = null;
  for (let i = 0; i < index; i++) {
    if (nodeKind(parsed[i]!.stmt) !== 'VariableSetStmt') continue;
    const b = nodeBody(parsed[i]!.stmt);
    if (String(b.name) !== 'lock_timeout') continue;
    const arg = ((b.args ?? []) as AstNode[])[0]?.A_Const;
    const raw = arg?.sval?.sval ?? arg?.ival?.ival ?? (arg?.ival ? 0 : undefined);
    if (raw === undefined) {
      ms = null;
      continue;
    }
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h)?\s*$/i.exec(String(raw));
    const unit = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[(m?.[2] ?? 'ms').toLowerCase() as 'ms'] ?? 1;
    ms = m ? Number(m[1]) * unit : null;
    if (ms === 0) ms = null;
  }
  return ms;
}

/**
 * The calibrated figure for a statement's live features, its range widened by what it rests on
 * (a sample is close, a default guess is not; row triggers run code dbops does not read, so their
 * share of the time is a guess too) and, for a build CONCURRENTLY that has no calibration of its
 * own, doubled. The bench (`bench/lock-timing.ts`) judges exactly this.
 */
export function liveEstimate(
  features: NonNullable<Awaited<ReturnType<typeof liveFeatures>>>,
  statementType: string,
  calibration: Calibration,
  machineFactor: number | null,
): HoldEstimate | null {
  // Sampled rebuilds are measured below: the calibrated figure prices the rest of the rewrite.
  const sampled = features.rebuildSamples.length;
  const calibrated = sampled ? { ...features.features, rebuildIndexes: Math.max(0, features.features.rebuildIndexes - sampled) } : features.features;
  let estimate = predictHold(features.cls, calibrated, {
    calibration,
    ...(machineFactor !== null ? { machineFactor } : {}),
    source: [
      "the target's catalog",
      features.keyBasis ? `index key: ${features.keyBasis.text}` : null,
      features.rowsBasis ? `rows changed: ${features.rowsBasis.text}` : null,
    ]
      .filter(Boolean)
      .join('; '),
  });
  if (!estimate) return null;
  const widen = (features.rowsBasis?.spread ?? 1) * (features.keyBasis?.spread ?? 1) * (features.features.rowTriggers > 0 ? TRIGGER_SPREAD : 1);
  if (widen > 1) estimate = { ...estimate, low: Math.round((estimate.low / widen) * 10) / 10, high: Math.round(estimate.high * widen * 10) / 10 };
  // A btree build whose sample was sorted on the target is priced from that measurement.
  if (features.sortSample && (features.cls === 'index_btree' || features.cls === 'index_concurrent'))
    estimate = withMeasuredSort(estimate, features.sortSample, features.cls === 'index_concurrent');
  if (features.ginSample && features.cls === 'index_gin') estimate = withMeasuredGinArray(estimate, features.ginSample);
  if (features.brinSample && features.cls === 'index_brin') estimate = withMeasuredBrin(estimate, features.brinSample);
  // A rewrite builds each index again: its sampled btree indexes are priced from their sorts.
  if (sampled) estimate = withMeasuredRebuilds(estimate, features.rebuildSamples);
  // ... and computes each row's new values, measured on a sample when the gate let them through.
  if (features.expressionSample) estimate = withMeasuredExpressions(estimate, features.expressionSample, machineFactor);
  // An UPDATE computes again the stored generated columns that read what it sets.
  if (features.recomputeSample && features.cls === 'update')
    estimate = withRecomputedColumns(estimate, features.recomputeSample, features.features.touchedRows);
  // A scan that finds an UPDATE's or DELETE's rows, measured on a sample of the real rows.
  if (features.scanSample) estimate = withMeasuredDmlScan(estimate, features.cls, calibrated, calibration, machineFactor, features.scanSample);
  // An aggregating INSERT hashes or sorts every row it reads, which the insert class does not hold.
  if (features.rowsBasis?.aggregate) estimate = withAggregateWork(estimate);
  if (statementType.includes('CONCURRENTLY') && features.cls !== 'index_concurrent')
    estimate = {
      ...estimate,
      ms: estimate.ms * 2,
      low: estimate.low * 1.5,
      high: estimate.high * 3,
      basis: `${estimate.basis}; CONCURRENTLY scans twice and waits for older snapshots (x2, not calibrated for ${features.cls})`,
    };
  return estimate;
}

/**
 * An aggregating INSERT's hold time against the insert class's figure for its groups, its query
 * costed as its table's scan: the class was fitted on INSERT ... SELECTs that copy rows, and an
 * aggregate also hashes or sorts every row it reads (spilling past `work_mem` where the groups
 * are many). Over the twelve aggregating INSERTs of sets R, S, T, X, AA and AB (80 to 1.5M groups
 * of 250k-1.5M rows, their groups sampled), the real time came out at 1.70-2.93x of that figure in
 * one run (median 2.45x, load 1.3-2.5) and 1.30-3.00x in another (median 2.13x, load 1.1-2.6).
 * (Costed first as the planner's plan of the query, whose cost follows the planner's own groups:
 * 1.00-2.25x, median 1.77x, and set AB-A's 1.2M planned groups against 6,718 sampled x3.04 over.)
 */
const AGGREGATE_RATIO = 2.2;

export function withAggregateWork(estimate: HoldEstimate): HoldEstimate {
  return {
    ...estimate,
    // The measured 1.3-3.0x: the class's low end stays, its high end moves up with the point.
    ms: estimate.ms * AGGREGATE_RATIO,
    high: estimate.high * AGGREGATE_RATIO,
    basis: `${estimate.basis}; x${AGGREGATE_RATIO} for the aggregate's own work (hashing or sorting every row it reads: measured 1.3-3.0x of the insert class's figure)`,
  };
}

/** Below this, a preflight query's time is mostly its round trip and planning, not the scan. */
const MIN_MEASURED_SCAN_MS = 20;

/**
 * The validation under the lock (ALTER TABLE's per-row check) against the preflight check's wall
 * time (its catalog questions and the scan), with the check planned as the validation runs
 * (serial, the heap read whole, a foreign key's memory: PreflightSession.planAsValidation), by
 * kind of check. First fitted as one ratio over 30 validations of the lock-timing sets L-P (median
 * 0.92x, all within 0.73-1.27x); over the 490 validations timed in the runs of sets D-Z and the
 * base set on 2026-11-29 (PostgreSQL 15, 6k-2M rows) the kinds part: a CHECK's own evaluation
 * under the lock came out at a median 0.74x of the preflight's query (5th-95th percentile
 * 0.49-0.98), SET NOT NULL's at 1.14x (0.86-1.57: each row's null test is ALTER TABLE's own loop
 * over the tuple, not a scan's qualifier), a foreign key's at 0.84x (0.41-1.14, the low end on
 * keys the validation finds in memory). (With the checks planned freely, parallel and through
 * indexes, one ratio spread over 0.59-3.31x.) Its keys are the validation scan classes whose work the
 * preflight repeats: a scan of every row evaluating the same condition.
 */
const SCAN_RATIOS: Partial<Record<TimingClass, MeasuredRatio>> = {
  scan_check: { point: 0.74, low: 0.5, high: 1.0 },
  scan_not_null: { point: 1.14, low: 0.85, high: 1.6 },
  fk_validate: { point: 0.84, low: 0.55, high: 1.15 },
};

/**
 * A validation scan's hold time from the preflight's own scan of every row on the target (passed,
 * not sampled): a measurement on the real rows, condition and machine, which no calibration of
 * the scan classes has (they price a row, not the condition evaluated on it).
 */
export function withMeasuredScan(estimate: HoldEstimate, scannedMs: number): HoldEstimate {
  const ratio = SCAN_RATIOS[estimate.cls];
  if (!ratio || scannedMs < MIN_MEASURED_SCAN_MS) return estimate;
  return fromMeasurement(
    estimate,
    scannedMs,
    ratio,
    `the preflight's scan of every row took ${Math.round(scannedMs)} ms on the target, and the validation under the lock takes about ${ratio.point}x as long (measured ${ratio.low}-${ratio.high}x of it)`,
  );
}

/**
 * The preflight's full scans by statement: the wall time of each statement's one passed, unsampled
 * check among `scanning` (the preflight's checks that scan every row for the condition validated;
 * a statement with several, or none, has no entry: one ALTER validates several conditions in one
 * pass, which separate queries do not measure).
 */
export function measuredScans(
  findings: readonly { check: string; statement_index: number; status: string; sampled: boolean; duration_ms: number }[],
  scanning: ReadonlySet<string>,
): Map<number, number> {
  const byStatement = new Map<number, number[]>();
  for (const f of findings) {
    if (!scanning.has(f.check)) continue;
    const list = byStatement.get(f.statement_index) ?? [];
    list.push(f.status === 'passed' && !f.sampled ? f.duration_ms : NaN);
    byStatement.set(f.statement_index, list);
  }
  const out = new Map<number, number>();
  for (const [index, times] of byStatement) if (times.length === 1 && Number.isFinite(times[0])) out.set(index, times[0]!);
  return out;
}

/**
 * Lock hold times carried to the target and lock queueing on it, for a connection the caller
 * opened: one speed probe (EXPLAIN ANALYZE of a fixed read-only query), the live features of
 * each statement (catalog and planner estimates, ACCESS SHARE at most), and the sessions that
 * hold or wait for conflicting locks now (pg_locks, pg_stat_activity). Runs in a READ ONLY
 * transaction with lock and statement timeouts.
 */
export async function liveLockTiming(
  client: QueueClient,
  parsed: readonly ParsedStatement[],
  facts: readonly StatementFacts[],
  options: {
    calibration?: Calibration;
    statementTimeoutMs?: number;
    /** Statements whose WHERE failed the live-expression gate: their rows come from the default selectivity. */
    unplannable?: ReadonlySet<number>;
    /** How much of a table a count of the rows a guessed-at WHERE selects may read. */
    countLimits?: CountLimits;
    /** Wall time of the preflight's scan of every row for a statement (`measuredScans`), ms, by statement index. */
    measuredScans?: ReadonlyMap<number, number>;
  } = {},
): Promise<LiveLockTimingReport> {
  const calibration = options.calibration ?? CALIBRATION;
  await client.query('BEGIN TRANSACTION READ ONLY');
  try {
    await client.query(`SET LOCAL lock_timeout = 1000`);
    await client.query(`SET LOCAL statement_timeout = ${Math.round(options.statementTimeoutMs ?? 5000)}`);
    const live = [];
    for (const stmt of parsed) {
      const f = facts[stmt.index]!;
      if (!f.table) {
        live.push(null);
        continue;
      }
      // A catalog question that fails (a WHERE naming a column an earlier statement of the
      // migration adds) aborts the transaction: back to before it, so the later statements, the
      // probe and the lock queue are still read.
      await client.query('SAVEPOINT dbops_features');
      const got = await liveFeatures(client, stmt, f, !!options.unplannable?.has(stmt.index), options.countLimits).catch(() => null);
      await client.query(got ? 'RELEASE SAVEPOINT dbops_features' : 'ROLLBACK TO SAVEPOINT dbops_features');
      live.push(got);
    }
    // The probe costs a few hundred ms of the target's CPU: only when some hold is more than a catalog change.
    const probeMs = live.some((l) => l && l.cls !== 'catalog') ? await machineProbe(client).catch(() => NaN) : NaN;
    const machineFactor = Number.isFinite(probeMs) && calibration.probeMs > 0 ? probeMs / calibration.probeMs : null;
    const tables = [...new Set(facts.flatMap((f) => f.locks.map((l) => l.table)))];
    const holders = await lockHolders(client, tables).catch(() => []);
    const out: StatementLockTiming[] = [];
    for (const stmt of parsed) {
      const f = facts[stmt.index]!;
      const warnings: string[] = [];
      let estimate: HoldEstimate | null = null;
      const features = live[stmt.index];
      if (features) {
        estimate = liveEstimate(features, f.statement_type, calibration, machineFactor);
        const scanned = options.measuredScans?.get(stmt.index);
        if (estimate && scanned !== undefined) estimate = withMeasuredScan(estimate, scanned);
        if (estimate && features.cls !== 'catalog')
          warnings.push(
            `[lock-timing] Holds ${f.lock_type} on ${f.table} for about ${seconds(estimate.ms)} (likely ${seconds(estimate.low)} to ${seconds(estimate.high)}): ${estimate.basis}.`,
          );
      }
      const timeout = lockTimeoutBefore(parsed, stmt.index);
      for (const l of f.locks) {
        const w = queueWarning(l.table, l.mode, holders, timeout);
        if (w && !warnings.includes(w)) warnings.push(w);
      }
      out.push({ statementIndex: stmt.index, estimate, warnings });
    }
    return { probeMs: Number.isFinite(probeMs) ? probeMs : null, machineFactor, statements: out };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
