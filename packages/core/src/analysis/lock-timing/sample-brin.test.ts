import { describe, expect, it } from 'vitest';
import type { HoldEstimate } from './calibration';
import { brinRatio, withMeasuredBrin } from './sample-brin';

const calibrated: HoldEstimate = { ms: 100, low: 70, high: 140, cls: 'index_brin', basis: 'index_brin calibrated' };

describe('withMeasuredBrin', () => {
  it('prices a table of few rows a page under its scaled sample and one of many over it', () => {
    // The same 20 ms read over a tenth of the pages: 200 ms scaled.
    const wide = withMeasuredBrin(calibrated, { percent: 10, ms: 20, perPage: 17 });
    const narrow = withMeasuredBrin(calibrated, { percent: 10, ms: 20, perPage: 100 });
    expect(wide.ms).toBeLessThan(200);
    expect(narrow.ms).toBeGreaterThan(200 * 1.2);
    expect(wide.low).toBeLessThan(wide.ms);
    expect(wide.high).toBeGreaterThan(wide.ms);
    expect(wide.basis).toMatch(/measured at 0\.76x of such a figure at 17 rows a page/);
  });

  it('keeps the ratio within what was measured', () => {
    expect(brinRatio(1).point).toBe(0.6);
    expect(brinRatio(2000).point).toBe(1.5);
  });

  it('leaves a build too short to matter to the calibrated figure', () => {
    expect(withMeasuredBrin(calibrated, { percent: 100, ms: 0.5, perPage: 50 })).toBe(calibrated);
  });
});
