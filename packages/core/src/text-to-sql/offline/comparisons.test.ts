import { describe, expect, it } from 'vitest';
import { findComparisons } from './comparisons';

const find = (q: string) => {
  const words = q.toLowerCase().split(' ');
  return findComparisons(words, (i) => /^\d+$/.test(words[i] ?? '')).map((c) => `${c.op} ${c.value}`);
};

describe('comparisons', () => {
  it('reads a phrase after the number ("10 or more", "5 or fewer")', () => {
    expect(find('books whose price is 10 or more')).toEqual(['>= 10']);
    expect(find('trips with 5 or fewer stops')).toEqual(['<= 5']);
  });

  it('reads ranges with both ends included', () => {
    expect(find('price between 10 and 20')).toEqual(['>= 10', '<= 20']);
    expect(find('published from 1990 to 1999')).toEqual(['>= 1990', '<= 1999']);
  });
});
