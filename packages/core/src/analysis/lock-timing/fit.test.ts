import { describe, expect, it } from 'vitest';
import { fitRelative } from './fit';

describe('fitRelative', () => {
  it('recovers a non-negative linear model and drops a feature that would go negative', () => {
    const x = [
      [1, 1],
      [1, 2],
      [1, 4],
      [1, 8],
    ];
    const y = x.map((r) => 3 + 2 * r[1]!);
    const b = fitRelative(x, y);
    expect(b[0]).toBeCloseTo(3, 6);
    expect(b[1]).toBeCloseTo(2, 6);
    const c = fitRelative(
      [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
      [10, 5, 1],
    );
    expect(c.every((v) => v >= 0)).toBe(true);
  });

  it('below the floor, counts absolute error: a 1 ms point does not outweigh a 100 ms one', () => {
    // One coefficient for two points that disagree: relative error pulls it to the small point,
    // with a 25 ms floor the small point weighs as if it were 25 ms.
    expect(fitRelative([[1], [1]], [1, 100])[0]).toBeCloseTo(10100 / 10001, 6);
    expect(fitRelative([[1], [1]], [1, 100], 25)[0]).toBeCloseTo(116 / 17, 3);
  });
});
