import data from './calibration-data.json';
import { CLASS_FEATURES, type FeatureName, featureValue, type TimingClass, type TimingFeatures } from './timing-class';

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

/**
 * Hold time of a statement of class `cls` on a table with `features`, from the calibration,
 * scaled by `machineFactor` (target probe / calibration probe; 1 without a probe).
 */
export function predictHold(
  cls: TimingClass,
  features: TimingFeatures,
  options: { calibration?: Calibration; machineFactor?: number; source: string },
): HoldEstimate | null {
  const cal = (options.calibration ?? CALIBRATION).classes[cls];
  if (!cal) return null;
  let ms = 0;
  for (const name of CLASS_FEATURES[cls]) ms += (cal.coef[name] ?? 0) * featureValue(name, features);
  const factor = options.machineFactor ?? 1;
  ms *= factor;
  const spread = Math.max(MIN_SPREAD, cal.spread) * (options.machineFactor === undefined ? MACHINE_SPREAD : 1.1);
  const round = (v: number) => Math.round(v * 10) / 10;
  const machine = () =>
    options.machineFactor === undefined
      ? 'no probe of the target (calibration machine speed assumed)'
      : `target probed ${factor.toFixed(2)}x the calibration machine's time`;
  return {
    ms: round(ms),
    low: round(ms / spread),
    high: round(ms * spread),
    cls,
    // Built on read: most callers need the figure only (one per statement of every analysis), and
    // the sentence with its formatted counts costs more than the prediction itself.
    get basis() {
      return `${cls} calibrated at ${cal.scales} rows (${(options.calibration ?? CALIBRATION).measuredOn}), extrapolated to ${Math.round(features.rows).toLocaleString('en-US')} rows / ${(features.heapBytes / 1e6).toFixed(0)} MB / ${features.indexes} index(es)${cls === 'update' || cls === 'delete' ? ` / ${Math.round(features.touchedRows).toLocaleString('en-US')} rows changed` : ''} from ${options.source}; ${machine()}`;
    },
  };
}
