import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

const icu = (n: number): string => Math.round(n).toLocaleString('en-US');

describe('formatCount', () => {
  it('groups digits exactly as Math.round(n).toLocaleString("en-US") does', () => {
    const values = [0, 1, 12, 999, 1000, 1234.5, 99_999.49, 1_000_000, 123_456_789, -1, -1234, -0.4, -999_999.6, 2 ** 53 - 1, 2 ** 60, 1e21, 0.5, -0.5];
    for (let n = 1; n < 1e16; n = n * 7 + 3) values.push(n, -n, n + 0.5);
    for (const n of values) expect(formatCount(n), String(n)).toBe(icu(n));
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
