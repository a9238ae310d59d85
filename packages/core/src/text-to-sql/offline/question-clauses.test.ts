import { describe, expect, it } from 'vitest';
import { parseClauses } from './question-clauses';
import { questionWords } from './words';

const parse = (q: string) => {
  const words = questionWords(q);
  const c = parseClauses(words);
  const text = ([a, b]: [number, number]) =>
    words
      .slice(a, b)
      .map((w) => w.text)
      .join(' ');
  return { ...c, outputText: c.outputs.map(text), orderText: c.order ? text(c.order.range) : undefined, words };
};

describe('question clauses', () => {
  it('reads the output sentence item by item, commas and "and" alike', () => {
    const c = parse('Produce a list of the loans. Return the loan id, the book id and the member id.');
    expect(c.outputText).toEqual(['loan id', 'book id', 'member id']);
    expect(c.dismissed.has(0)).toBe(true);
  });

  it('reads ordering with its direction, "the first N" and "without duplicates"', () => {
    const c = parse('Produce an ordered list of the first 10 surnames of members, without duplicates, sorted by surname descending.');
    expect(c.limit).toBe(10);
    expect(c.distinct).toBe(true);
    expect(c.orderText).toBe('surname');
    expect(c.order?.desc).toBe(true);
  });

  it('does not take "Return" at the very start as an output sentence, nor "number of distinct" as DISTINCT', () => {
    const c = parse('Return the titles of the books written by authors from Canada.');
    expect(c.outputs).toEqual([]);
    expect(c.dismissed.has(0)).toBe(true);
    expect(parse('How many different members borrowed book 20?').distinct).toBe(false);
  });

  it('marks sentence starts and apostrophes', () => {
    const words = questionWords("Return the member's surname. Simply produce 'Garden'.");
    expect(words.filter((w) => w.sentenceStart).map((w) => w.text)).toEqual(['Return', 'Simply']);
    expect(words.filter((w) => w.kind === 'quoted').map((w) => w.text)).toEqual(['Garden']);
  });
});
