import { describe, expect, it } from 'vitest';
import { estimatedDistinct, lexemeShape } from './sample-lexemes';

describe('estimatedDistinct', () => {
  it('keeps what the sample saw when every value came back many times', () => {
    expect(estimatedDistinct(10_000, 14, 0, 1_000_000)).toBe(14);
  });

  it('scales the values seen once by the square root of the population over the sample: a hundredth sampled, ten times', () => {
    expect(estimatedDistinct(10_000, 10_000, 10_000, 1_000_000)).toBe(100_000);
    expect(estimatedDistinct(10_000, 2_014, 2_000, 1_000_000)).toBe(20_014);
  });

  it('lands between the two for a mix, and never below the sample or above the population', () => {
    const d = estimatedDistinct(10_000, 3_000, 2_000, 1_000_000);
    expect(d).toBeGreaterThan(3_000);
    expect(d).toBeLessThan(1_000_000);
    expect(estimatedDistinct(500, 400, 300, 400)).toBe(400);
    expect(estimatedDistinct(0, 0, 0, 100)).toBe(0);
  });
});

describe('lexemeShape', () => {
  it("takes entries and rarer entries a row from the sample, and the table's distinct lexemes from its rows", () => {
    const shape = lexemeShape({ percent: 10, rows: 1_000, entries: 12_000, distinct: 14, once: 0, cold: 0 }, 10_000);
    expect(shape).toEqual({ entriesPerRow: 12, distinct: 14, coldPerRow: 0 });
    expect(lexemeShape({ percent: 10, rows: 1_000, entries: 5_000, distinct: 1_004, once: 1_000, cold: 1_000 }, 10_000).coldPerRow).toBe(1);
  });
});
