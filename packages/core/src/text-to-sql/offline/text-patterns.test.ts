import { describe, expect, it } from 'vitest';
import { findTextPatterns } from './text-patterns';
import { questionWords } from './words';

const patterns = (q: string) => findTextPatterns(questionWords(q)).map((p) => p.pattern);

describe('text patterns', () => {
  it('reads contains / starts with / ends with a quoted or capitalised word', () => {
    expect(patterns("books whose title contains the word 'Garden'")).toEqual(['%Garden%']);
    expect(patterns("drivers whose last name starts with 'S'")).toEqual(['S%']);
    expect(patterns('products whose name ends with Lamp')).toEqual(['%Lamp']);
  });

  it('escapes LIKE wildcards and ignores verbs without a value', () => {
    expect(patterns("codes containing '50%_off'")).toEqual(['%50\\%\\_off%']);
    expect(patterns('orders that start soon')).toEqual([]);
  });
});
