import { describe, expect, it } from 'vitest';
import { performedOperatorWords, unperformedOperatorWords } from './operator-words';
import { questionWords } from './words';

const left = (q: string, sql: string, skip: number[] = []): string[] =>
  unperformedOperatorWords(questionWords(q), (i) => skip.includes(i), sql).map((w) => w.text);

describe('operator words the SQL must perform', () => {
  it('names an average, a superlative or a negation the SQL does not compute', () => {
    expect(left('the average fee of the visits', 'SELECT v.* FROM visits v')).toEqual(['average']);
    expect(left('the average fee of the visits', 'SELECT round(avg(v.fee)::numeric, 2) FROM visits v')).toEqual([]);
    expect(left('the doctor with the highest salary', 'SELECT d.* FROM doctors d')).toEqual(['highest']);
    expect(left('the doctor with the highest salary', 'SELECT d.* FROM doctors d ORDER BY d.salary DESC LIMIT 1')).toEqual([]);
    expect(left("patients who didn't book", 'SELECT p.* FROM patients p')).toEqual(['didn']);
    expect(left('doctors not in Leeds', "SELECT d.* FROM doctors d WHERE d.city <> 'Leeds'")).toEqual([]);
    expect(left('visits with no fee', 'SELECT v.* FROM visits v WHERE v.fee IS NULL')).toEqual([]);
  });

  it('leaves "at least" and "at most" to the comparison, and skips words explained elsewhere', () => {
    expect(left('doctors with at least 3 visits', 'SELECT d.* FROM doctors d')).toEqual([]);
    // "min" names the column min_price here (word 1), not a minimum.
    expect(left('the min price of each product', 'SELECT p.min_price FROM products p', [1])).toEqual([]);
  });

  it('checks the direction of a plain superlative, and counts a performed one as placed', () => {
    const sql = 'SELECT b.name, count(*) FROM branches b JOIN loans l USING (branch_id) GROUP BY b.name ORDER BY count DESC LIMIT 1';
    expect(left('the branch with the fewest loans', sql)).toEqual(['fewest']);
    expect(left('the branch with the most loans', sql)).toEqual([]);
    const words = questionWords('the branch with the fewest loans');
    expect(performedOperatorWords(words, () => false, sql.replace('DESC', 'ASC')).map((w) => w.text)).toEqual(['fewest']);
  });
});
