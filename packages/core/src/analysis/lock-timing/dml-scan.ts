import { type Calibration, type HoldEstimate, type MeasuredRatio, plusMeasurement } from './calibration';
import { percentText } from './sample-pages';
import { featureValue, type TimingClass, type TimingFeatures } from './timing-class';

/**
 * An UPDATE's or DELETE's WHERE evaluated over a page sample of its table on the target, timed:
 * the scan that finds its rows, on the real rows, condition and machine. The delete and update
 * classes price that scan from the planner's cost, which counts a page and a row the same
 * whatever the row's width, the position of the columns the WHERE reads after variable-width
 * ones, or the cost of comparing text under a collation: the spent sets' DELETEs found by a
 * scan ran 1.7-3.4x over their figures (S-A's `quality = 2 AND unit = 'kPa'` on 1.5M readings,
 * AC-A's `note IS NOT NULL AND status = 1` reading the ninth column).
 */
export interface ScanSample {
  /** Execution time of the sample's count as the server timed it (EXPLAIN ANALYZE: no round trip in it). */
  ms: number;
  /** Share of the table's pages the sample read, in percent. */
  percent: number;
}

/** The statement's scan from its sample: the whole table read, in ms on the target. */
export const scaledScanMs = (sample: ScanSample): number => (sample.ms * 100) / Math.max(0.01, sample.percent);

/**
 * Below this, a sample's own time is mostly the scan's start, not its pages (scaled up from a
 * tiny sample, a millisecond of it would read as seconds of scan).
 */
const MIN_SAMPLE_MS = 5;

/**
 * The DML's own scan against the sample's count, scaled to the whole table: a sample reads its
 * pages out of order and aggregates, and comes out slower than the DML's sequential pass. On the
 * `--calibrate-scans` shapes (UPDATEs and DELETEs of a thousandth of the rows found by a
 * sequential scan, tables of 40 MB to three times shared buffers), the DML's time less the rest of
 * its figure against the scaled sample as the server timed it, two runs of 16 statements
 * (2026-11-29 13:24-13:25 UTC, load 1.2-2.3): 0.52-1.00x, median 0.71 (UPDATEs 0.67-1.00,
 * DELETEs 0.52-0.77). First fitted at 0.66 (0.53-0.74, one run) on the sample's wall time, which
 * held the round trips of the query and its savepoint, scaled up with the sample.
 */
export const DML_SCAN_RATIO: MeasuredRatio = { point: 0.71, low: 0.5, high: 1.0 };

/**
 * A DML hold time with the calibrated price of the scan that finds its rows (`seqScanCost`'s
 * term, at the target's speed) replaced by the scan measured on a sample, at
 * {@link DML_SCAN_RATIO}: the rest of the figure (rows changed, index entries, triggers) stays.
 */
export function withMeasuredDmlScan(
  estimate: HoldEstimate,
  cls: TimingClass,
  features: TimingFeatures,
  calibration: Calibration,
  machineFactor: number | null,
  sample: ScanSample,
): HoldEstimate {
  const measured = scaledScanMs(sample);
  if ((cls !== 'update' && cls !== 'delete') || !features.foundByScan || sample.ms < MIN_SAMPLE_MS) return estimate;
  const modelled = (calibration.classes[cls]?.coef.seqScanCost ?? 0) * featureValue('seqScanCost', features) * (machineFactor ?? 1);
  const rest = Math.max(0, estimate.ms - modelled);
  // The rest keeps its own range (the calibrated spread around its point); the scan brings the ratio's.
  const share = rest / Math.max(1e-9, estimate.ms);
  const pct = sample.percent >= 99.95 ? 'the whole table' : `a sample of ${percentText(sample.percent)}% of the table`;
  return plusMeasurement(
    { ...estimate, ms: rest, low: estimate.low * share, high: estimate.high * share },
    measured,
    DML_SCAN_RATIO,
    `its WHERE evaluated over ${pct} on the target in ${Math.round(sample.ms)} ms, a scan of about ${Math.round(measured)} ms for the whole (the scan priced at ${DML_SCAN_RATIO.point}x of that, measured ${DML_SCAN_RATIO.low}-${DML_SCAN_RATIO.high}x; the calibrated scan was ${Math.round(modelled)} ms)`,
  );
}
