import { describe, expect, it } from 'vitest';
import { unusedLiterals } from './literal-accounting';
import { questionWords } from './words';

const unused = (question: string, sql: string) => unusedLiterals(questionWords(question), [], sql).map((l) => l.text);

describe('literal accounting', () => {
  it('names a number the SQL ignores', () => {
    expect(unused('How many rentals has customer 100 made?', 'SELECT count(*) FROM rental r')).toEqual(['100']);
    expect(unused('How many rentals has customer 100 made?', 'SELECT count(*) FROM rental r WHERE r.customer_id = 100')).toEqual([]);
  });

  it('does not take a number from an identifier, a longer number or the rounding the generator adds', () => {
    expect(unused('Addresses of store 2', 'SELECT a.address2 FROM address a WHERE a.id = 1000')).toEqual(['2']);
    expect(unused('Average price of store 2', 'SELECT round(avg(p.price)::numeric, 2) AS avg_price FROM products p')).toEqual(['2']);
  });

  it('finds numbers inside dates, intervals and limits', () => {
    expect(unused('Orders in the last 30 days', "SELECT * FROM orders o WHERE o.created_at >= now() - interval '30 days'")).toEqual([]);
    expect(unused('Orders in 2024', "SELECT * FROM orders o WHERE o.created_at >= '2024-01-01'")).toEqual([]);
    expect(unused('The first 10 names', 'SELECT name FROM t LIMIT 10')).toEqual([]);
  });

  it('checks quoted strings and ISO dates, case aside, through LIKE escapes and doubled quotes', () => {
    expect(unused("Names containing 'tennis_court'", "SELECT name FROM f WHERE name ILIKE '%tennis\\_court%'")).toEqual([]);
    expect(unused('Customers named "O\'Brien"', "SELECT * FROM c WHERE c.name = 'o''brien'")).toEqual([]);
    expect(unused("Members named 'Smith' who joined after 2012-09-01", 'SELECT * FROM members m')).toEqual(['Smith', '2012-09-01']);
  });
});
