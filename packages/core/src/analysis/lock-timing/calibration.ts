import { formatCount } from '../../util/format-count';
import data from './calibration-data.json';
import {
  CLASS_FEATURES,
  dirtiedPages,
  type FeatureName,
  featureValue,
  INSERT_SHARED_TERMS,
  isRewrite,
  type TimingClass,
  type TimingFeatures,
} from './timing-class';

/** One class's fitted model: ms = sum(coef[f] x feature f), and how far the calibration points strayed from it. */
export interface ClassCalibration {
  coef: Partial<Record<FeatureName, number>>;
  /** Largest ratio between a calibration point and the fit (>= 1). */
  spread: number;
  points: number;
  /** Row counts the class was timed at, e.g. "100k-300k". */
  scales: string;
}

/** Hold-time calibration measured by `bench/lock-timing.ts --calibrate` on a real server. */
export interface Calibration {
  /** PostgreSQL version, machine and date of the measurement. */
  measuredOn: string;
  /** Median of {@link machineProbe} on the calibration server at calibration time, ms. */
  probeMs: number;
  classes: Partial<Record<TimingClass, ClassCalibration>>;
}

/** The committed calibration (see docs/benchmarks.md for how it was measured). */
export const CALIBRATION: Calibration = data as Calibration;

/** A calibrated hold time with its range and how it was obtained. */
export interface HoldEstimate {
  ms: number;
  low: number;
  high: number;
  cls: TimingClass;
  basis: string;
}

/** Extra uncertainty of carrying a figure from one machine to another with a CPU probe alone. */
const MACHINE_SPREAD = 1.3;
/** Floor of the range: timings on a busy server vary this much run to run. */
const MIN_SPREAD = 1.25;

/** What a DML estimate counted besides the table: rows, row triggers, HOT updates, foreign key checks both ways. */
function dmlBasis(cls: TimingClass, f: TimingFeatures): string {
  const parts = [` / ${formatCount(f.touchedRows)} rows changed`];
  // Rows an index finds on a key the heap is not ordered by lie a page each: every page is a visit.
  if (!f.foundByScan && !f.rowsClustered && f.touchedRows > 0)
    parts.push(`found through an index on a key the heap is not ordered by, on about ${formatCount(dirtiedPages(f))} heap pages`);
  if (f.rowTriggers) parts.push(`${f.rowTriggers} row trigger(s) each${f.triggerWrites ? `, writing ${f.triggerWrites} row(s) of their own per fire` : ''}`);
  if (f.indexes && f.nonHotShare < 0.95)
    parts.push(
      f.nonHotShare < 0.05 ? 'updated in place (HOT: no new index entries)' : `about ${Math.round(f.nonHotShare * 100)}% with new index entries (the rest HOT)`,
    );
  const full = f.fullEntryIndexes ?? 0;
  if (full >= 0.5 && f.nonHotShare >= 0.05)
    parts.push(
      `new entries meeting full leaf pages in ${Math.round(full * 10) / 10} indexes' worth (leaves as CREATE INDEX or earlier updates left them, key kept by the UPDATE): each first tries to clear the page of older row versions`,
    );
  if (Math.abs(f.entryIndexes - f.indexes) > 0.05 && f.nonHotShare >= 0.05)
    parts.push(
      `new versions take entries in ${Math.round(f.entryIndexes * 10) / 10} of ${f.indexes} indexes' worth (a BRIN index keeps summaries; a partial one counts half; a GIN one each entry of the value, at a fifth of a btree entry)`,
    );
  if (f.fkChecks) parts.push(`${f.fkChecks} foreign key(s) checked against the parent per row`);
  if (f.indexedRefs) parts.push(`${f.indexedRefs} referencing foreign key(s) checked by index`);
  if (f.unindexedRefRows)
    parts.push(`referencing children without an index on the key (${Math.round(f.unindexedRefRows).toLocaleString('en-US')} rows) scanned per row`);
  if (f.cascadeRows) {
    const visits = f.cascadeVisits ? `, reached in ${Math.round(f.cascadeVisits).toLocaleString('en-US')} heap page visits` : '';
    const outside =
      (f.cascadeUncachedPages ?? 0) >= 1
        ? ` (about ${Math.round(f.cascadeUncachedPages!).toLocaleString('en-US')} pages read from outside shared buffers)`
        : '';
    parts.push(`about ${Math.round(f.cascadeRows).toLocaleString('en-US')} child rows cascaded${visits}${outside}`);
  }
  if (f.setNullRows)
    parts.push(
      `about ${Math.round(f.setNullRows).toLocaleString('en-US')} child rows updated by ${cls === 'update' ? 'ON UPDATE CASCADE/SET NULL/SET DEFAULT' : 'ON DELETE SET NULL/DEFAULT'} (priced as an UPDATE, ${Math.round((f.setNullEntries ?? 0) * 10) / 10} index entries each)`,
    );
  if ((f.childTriggerFires ?? 0) >= 1)
    parts.push(
      `their row triggers fired about ${formatCount(f.childTriggerFires!)} times${f.childTriggerWrites ? `, writing about ${formatCount(f.childTriggerWrites)} rows` : ''}`,
    );
  if (f.touchedToastBytes >= 1e6) parts.push(`about ${mb(f.touchedToastBytes)} MB of new values stored out of line (TOAST)`);
  return parts.join(', ');
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);

/** What a rewrite or an index build counted besides the heap: TOAST copied or read, GIN indexes rebuilt. */
function buildBasis(cls: TimingClass, f: TimingFeatures): string {
  const parts: string[] = [];
  if (isRewrite(cls) && f.toastBytes >= 1e6) parts.push(`${mb(f.toastBytes)} MB of TOAST copied`);
  if (isRewrite(cls) && f.rebuildGinEntries > 0) parts.push(`GIN indexes rebuilt at about ${Math.round(f.rebuildGinEntries)} entries a row`);
  if (isRewrite(cls) && (f.rebuildGistCost ?? 0) > 0) parts.push(`GiST indexes rebuilt as GiST builds (key cost ${Math.round(f.rebuildGistCost! * 10) / 10})`);
  if (f.toastRead >= 1e6) parts.push(`the key reads ${mb(f.toastRead)} MB stored out of line (TOAST)`);
  return parts.length ? `, ${parts.join(', ')}` : '';
}

/**
 * The calibrated hold time alone, in ms at the calibration machine's speed (null when the class
 * is not calibrated). Every analysis asks this once per statement, so it builds nothing else.
 */
export function predictHoldMs(cls: TimingClass, features: TimingFeatures, calibration: Calibration = CALIBRATION): number | null {
  const cal = calibration.classes[cls];
  if (!cal) return null;
  let ms = 0;
  const names = CLASS_FEATURES[cls];
  // An INSERT's triggers and foreign key lookups cost what an UPDATE's do (INSERT_SHARED_TERMS).
  const shared = cls === 'insert' ? (calibration.classes.update?.coef ?? {}) : null;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const coef = shared && INSERT_SHARED_TERMS.includes(name) ? shared[name] : cal.coef[name];
    ms += (coef ?? 0) * featureValue(name, features);
  }
  // A rewrite builds each GIN index again as CREATE INDEX does: the GIN class's price per entry
  // (the rewrite's own points, on tables without GIN indexes, cannot fit it).
  if (features.rebuildGinEntries > 0 && isRewrite(cls))
    ms += ((calibration.classes.index_gin?.coef.ginEntries ?? 0) * features.rows * features.rebuildGinEntries) / 1e6;
  // ... and each GiST index as the GiST class prices a build: rows x log rows x key cost, in no
  // order (a rewrite copies the heap as it lies; the class was fitted on such builds).
  const gist = features.rebuildGistCost ?? 0;
  if (gist > 0 && isRewrite(cls))
    ms += ((calibration.classes.index_gist?.coef.randomLog ?? 0) * features.rows * Math.log2(Math.max(2, features.rows)) * gist) / 2e7;
  // ON DELETE SET NULL / SET DEFAULT writes a new version of each child row: the update class's
  // price of a changed row and of its index entries (the delete class's points have none).
  const setNull = features.setNullRows ?? 0;
  if (setNull > 0 && (cls === 'delete' || cls === 'update')) {
    const update = calibration.classes.update?.coef ?? {};
    ms += ((update.touched ?? 0) * setNull + (update.touchedIdx ?? 0) * setNull * (features.setNullEntries ?? 0)) / 1e6;
  }
  return ms;
}

/** Milliseconds as the estimates give them: to a tenth. */
const round = (v: number): number => Math.round(v * 10) / 10;

/** How a hold time relates to a measurement of the same work on the target: the point and the range it was measured in. */
export interface MeasuredRatio {
  point: number;
  low: number;
  high: number;
}

/**
 * A hold time taken from a measurement on the target (`measuredMs`, the work as the target did it)
 * times the ratio measured between the two, in place of the calibrated `estimate`; the basis says
 * `how` it was measured and keeps the calibrated figure beside it.
 */
export function fromMeasurement(estimate: HoldEstimate, measuredMs: number, ratio: MeasuredRatio, how: string): HoldEstimate {
  return {
    ...estimate,
    ms: round(measuredMs * ratio.point),
    low: round(measuredMs * ratio.low),
    high: round(measuredMs * ratio.high),
    basis: `${how}; the calibrated figure was ${round(estimate.ms)} ms (${estimate.basis})`,
  };
}

/**
 * A hold time whose `estimate` prices part of the work, with the rest measured on the target
 * (`measuredMs`) added at `ratio`: points add up, and so do the ends of the two ranges.
 */
export function plusMeasurement(estimate: HoldEstimate, measuredMs: number, ratio: MeasuredRatio, how: string): HoldEstimate {
  return {
    ...estimate,
    ms: round(estimate.ms + measuredMs * ratio.point),
    low: round(estimate.low + measuredMs * ratio.low),
    high: round(estimate.high + measuredMs * ratio.high),
    basis: `${estimate.basis}; ${how}`,
  };
}

/**
 * Hold time of a statement of class `cls` on a table with `features`, from the calibration,
 * scaled by `machineFactor` (target probe / calibration probe; 1 without a probe), with its
 * range and how it was obtained.
 */
export function predictHold(
  cls: TimingClass,
  features: TimingFeatures,
  options: { calibration?: Calibration; machineFactor?: number; source: string },
): HoldEstimate | null {
  const calibration = options.calibration ?? CALIBRATION;
  const cal = calibration.classes[cls];
  const base = predictHoldMs(cls, features, calibration);
  if (!cal || base === null) return null;
  const factor = options.machineFactor ?? 1;
  const ms = base * factor;
  const spread = Math.max(MIN_SPREAD, cal.spread) * (options.machineFactor === undefined ? MACHINE_SPREAD : 1.1);
  const machine =
    options.machineFactor === undefined
      ? 'no probe of the target (calibration machine speed assumed)'
      : `target probed ${factor.toFixed(2)}x the calibration machine's time`;
  return {
    ms: round(ms),
    low: round(ms / spread),
    high: round(ms * spread),
    cls,
    basis: `${cls} calibrated at ${cal.scales} rows (${calibration.measuredOn}), extrapolated to ${Math.round(features.rows).toLocaleString('en-US')} rows / ${(features.heapBytes / 1e6).toFixed(0)} MB / ${features.indexes} index(es)${cls === 'update' || cls === 'insert' || cls === 'delete' ? dmlBasis(cls, features) : buildBasis(cls, features)} from ${options.source}; ${machine}`,
  };
}
