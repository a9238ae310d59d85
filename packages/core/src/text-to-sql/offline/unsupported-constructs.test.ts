import { describe, expect, it } from 'vitest';
import { unsupportedConstructs } from './unsupported-constructs';

describe('unsupportedConstructs', () => {
  it.each([
    ['customers who never placed an order', 'a negation over related rows'],
    ['categories with no discontinued products', 'a negation over related rows'],
    ['what share of orders is cancelled, in percent?', 'a ratio or percentage'],
    ['monthly revenue of payments', 'grouping by time period'],
    ['revenue by month', 'grouping by time period'],
    ['median order total', 'a statistic it cannot compute'],
  ])('flags %s', (q, what) => {
    expect(unsupportedConstructs(q)).toContain(what);
  });
  it.each(['orders with no more than 5 items', 'how many customers per city', 'top 5 products by price', 'orders in the last 30 days'])('accepts %s', (q) => {
    expect(unsupportedConstructs(q)).toEqual([]);
  });
});
