import { describe, expect, it } from 'vitest';
import { duj1Distinct } from './distinct-keys';

describe('duj1Distinct', () => {
  it('keeps the values seen when every one came back more than once', () => {
    expect(duj1Distinct(10_000, 13, 0, 1_000_000)).toBe(13);
  });

  it('takes a value a row when every value was seen once', () => {
    expect(duj1Distinct(10_000, 10_000, 10_000, 1_000_000)).toBe(1_000_000);
  });

  it('lands between for a mix, never below the sample nor above the population, and is the sample itself when it is the whole', () => {
    const d = duj1Distinct(10_000, 6_000, 4_000, 1_000_000);
    expect(d).toBeGreaterThan(6_000);
    expect(d).toBeLessThan(1_000_000);
    expect(duj1Distinct(500, 400, 300, 500)).toBe(400);
    expect(duj1Distinct(0, 0, 0, 100)).toBe(0);
  });
});
