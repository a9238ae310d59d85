import { describe, expect, it } from 'vitest';
import { buildSortMs, scaledSortMs, type SortSample } from './sample-sort';

const sample: SortSample = { percent: 25, rows: 250_000, sortMs: 60, scanMs: 10 };

describe('buildSortMs', () => {
  it("keeps the sample's sort scaled to the table when the keys were not counted, or each is its own", () => {
    expect(buildSortMs(sample)).toEqual(scaledSortMs(sample));
    expect(buildSortMs({ ...sample, distinct: 1_000_000 })).toEqual(scaledSortMs(sample));
  });

  it('adds the comparisons the build makes between equal keys: log2(rows / distinct) a row, more for fewer values, less for keys the heap follows', () => {
    const plain = scaledSortMs(sample).ms;
    // 1M rows of 16 values: log2(62,500) = 15.9 rounds a row at 0.0117 us each: 186 ms.
    const sixteen = buildSortMs({ ...sample, distinct: 16 });
    expect(sixteen.rows).toBe(1_000_000);
    expect(sixteen.ms - plain).toBeCloseTo(1_000_000 * Math.log2(62_500) * 0.0117e-3, 6);
    // Keys the heap follows come presorted by key and position: the extra in the share of disorder.
    expect(buildSortMs({ ...sample, distinct: 16, keyOrder: 1 })).toEqual(scaledSortMs(sample));
    expect(buildSortMs({ ...sample, distinct: 16, keyOrder: 0.75 }).ms - plain).toBeCloseTo((sixteen.ms - plain) / 4, 6);
    const thousand = buildSortMs({ ...sample, distinct: 1_000 });
    expect(thousand.ms).toBeGreaterThan(plain);
    expect(thousand.ms).toBeLessThan(sixteen.ms);
  });
});
