import { describe, expect, it } from 'vitest';
import { type Calibration, predictHoldMs } from './calibration';
import { NO_DML_FACTS, type TimingFeatures } from './timing-class';

const calibration: Calibration = {
  measuredOn: 'test',
  probeMs: 10,
  classes: {
    update: { coef: { touched: 1000, touchedIdx: 2000, touchedFk: 3000 }, spread: 1.5, points: 5, scales: '100k' },
    insert: { coef: { touched: 400, touchedIdx: 900, scanCost: 300 }, spread: 1.5, points: 5, scales: '100k' },
  },
};

/** A million rows written, one index entry each, one foreign key checked per row, a query of planner cost 100,000. */
const features = (fkChecks: number): TimingFeatures =>
  ({
    rows: 0,
    heapBytes: 0,
    indexes: 1,
    touchedRows: 1e6,
    entryIndexes: 1,
    scanCost: 1e5,
    foundByScan: true,
    uncachedShare: 0,
    touchedToastBytes: 0,
    rowsClustered: true,
    ...NO_DML_FACTS,
    fkChecks,
  }) as unknown as TimingFeatures;

describe('the insert class', () => {
  it("prices an INSERT's rows, entries and query by its own terms, and its foreign key lookups at the update class's price", () => {
    expect(predictHoldMs('insert', features(0), calibration)).toBe(400 + 900 + 300);
    expect(predictHoldMs('insert', features(1), calibration)).toBe(400 + 900 + 300 + 3000);
    // The update class prices its own rows and entries, and its scan only when it finds rows by one (seqScanCost, not fitted here).
    expect(predictHoldMs('update', features(1), calibration)).toBe(1000 + 2000 + 3000);
  });
});
