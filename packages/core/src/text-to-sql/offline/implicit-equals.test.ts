import { describe, expect, it } from 'vitest';
import { findComparisons } from './comparisons';
import { findImplicitEquals } from './implicit-equals';

const run = (question: string, columnEnd: number) => {
  const w = question.toLowerCase().split(' ');
  const isNumber = (i: number) => /^\d+(\.\d+)?$/.test(w[i] ?? '');
  return findImplicitEquals(w, [columnEnd], isNumber, findComparisons(w, isNumber));
};

describe('findImplicitEquals', () => {
  it('reads "column N" and "column of N" as equality', () => {
    expect(run('reviews with rating 5', 3)).toEqual([{ op: '=', value: '5', numberIndex: 3, start: 3 }]);
    expect(run('reviews with rating of 4', 3)).toEqual([{ op: '=', value: '4', numberIndex: 4, start: 3 }]);
  });
  it('leaves explicit comparisons and columns without a number alone', () => {
    expect(run('products with stock less than 10', 3)).toEqual([]);
    expect(run('products with stock 10', 2)).toEqual([]);
    expect(run('rating 5', 1)).toEqual([{ op: '=', value: '5', numberIndex: 1, start: 1 }]);
  });
});
