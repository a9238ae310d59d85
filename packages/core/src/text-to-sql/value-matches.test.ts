import { describe, expect, it } from 'vitest';
import type { ColumnValueSample } from '../introspection/schema-snapshot';
import { questionWords } from './offline/words';
import { findValueMatches } from './value-matches';

const samples: ColumnValueSample[] = [
  { schema: 'public', table: 'film', column: 'rating', values: ['G', 'PG', 'PG-13', 'R'] },
  { schema: 'public', table: 'artist', column: 'name', values: ['AC/DC', 'Aerosmith'] },
  { schema: 'public', table: 'employee', column: 'title', values: ['Sales Representative', 'Sales Manager'] },
  { schema: 'public', table: 'customer', column: 'country', values: ['Brazil', 'USA', 'United Kingdom'] },
  { schema: 'public', table: 'invoice', column: 'billing_country', values: ['Brazil', 'USA'] },
  { schema: 'public', table: 'orders', column: 'note', values: ['all', 'No'] },
];

const found = (question: string) => {
  const words = questionWords(question);
  return findValueMatches(words, samples).map((m) => ({
    text: words
      .slice(m.start, m.end)
      .map((w) => w.text)
      .join(' '),
    holders: m.holders.map((h) => `${h.sample.table}.${h.sample.column}=${h.value}`),
    exact: m.exact,
  }));
};

describe('value matches', () => {
  it('finds values of several words and symbols, longest first, case aside', () => {
    expect(found('How many films are rated pg-13?')).toEqual([{ text: 'pg 13', holders: ['film.rating=PG-13'], exact: true }]);
    expect(found('Albums by AC/DC')).toEqual([{ text: 'AC DC', holders: ['artist.name=AC/DC'], exact: true }]);
    expect(found('customers in the united kingdom')).toEqual([{ text: 'united kingdom', holders: ['customer.country=United Kingdom'], exact: true }]);
  });

  it('matches plural forms by stem and says so', () => {
    expect(found('How many employees are Sales Representatives?')).toEqual([
      { text: 'Sales Representatives', holders: ['employee.title=Sales Representative'], exact: false },
    ]);
  });

  it('lists every column holding a value', () => {
    expect(found('Invoices from Brazil')[0]?.holders).toEqual(['customer.country=Brazil', 'invoice.billing_country=Brazil']);
  });

  it('ignores values of one short or common word', () => {
    expect(found('Show all orders with no rating R')).toEqual([]);
  });
});
