import { describe, expect, it } from 'vitest';
import { CALIBRATION, predictHold } from './calibration';
import { DML_SCAN_RATIO, withMeasuredDmlScan } from './dml-scan';
import { NO_DML_FACTS, type TimingFeatures } from './timing-class';

/** A DELETE of a thousand rows of a 1M-row, 120 MB table, found by a sequential scan. */
const features: TimingFeatures = {
  ...NO_DML_FACTS,
  rows: 1_000_000,
  heapBytes: 120e6,
  indexes: 2,
  entryIndexes: 2,
  rebuildIndexes: 2,
  rebuildGinEntries: 0,
  toastBytes: 0,
  toastRead: 0,
  touchedToastBytes: 0,
  parentRows: 0,
  touchedRows: 1000,
  ringBytes: 120e6,
  uncachedShare: 0,
  scanCost: 24_648,
  keyCost: 1,
  ginEntries: 0,
  keyCorrelation: 0.5,
  foundByScan: true,
  rowsClustered: true,
};

describe('withMeasuredDmlScan', () => {
  const estimate = predictHold('delete', features, { calibration: CALIBRATION, machineFactor: 1, source: 'test' })!;
  const modelled = CALIBRATION.classes.delete!.coef.seqScanCost! * (features.scanCost / 1e5);

  it("replaces the calibrated scan with the sample's, scaled to the table, and keeps the rest of the figure", () => {
    // A quarter of the table read in 50 ms: 200 ms for the whole.
    const measured = withMeasuredDmlScan(estimate, 'delete', features, CALIBRATION, 1, { ms: 50, percent: 25 });
    const rest = estimate.ms - modelled;
    expect(measured.ms).toBeCloseTo(rest + 200 * DML_SCAN_RATIO.point, 0);
    expect(measured.low).toBeLessThan(measured.ms);
    expect(measured.high).toBeGreaterThan(measured.ms);
    expect(measured.low).toBeGreaterThanOrEqual(200 * DML_SCAN_RATIO.low);
    expect(measured.basis).toMatch(/its WHERE evaluated over a sample of 25% of the table on the target in 50 ms, a scan of about 200 ms for the whole/);
  });

  it('leaves rows an index finds, other classes and samples too short to time as the calibration prices them', () => {
    expect(withMeasuredDmlScan(estimate, 'delete', { ...features, foundByScan: false }, CALIBRATION, 1, { ms: 50, percent: 25 })).toBe(estimate);
    expect(withMeasuredDmlScan(estimate, 'insert', features, CALIBRATION, 1, { ms: 50, percent: 25 })).toBe(estimate);
    expect(withMeasuredDmlScan(estimate, 'delete', features, CALIBRATION, 1, { ms: 2, percent: 1 })).toBe(estimate);
  });
});
