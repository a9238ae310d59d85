import { describe, expect, it } from 'vitest';
import { validateSelect } from './validate-select';

describe('validateSelect', () => {
  it.each([
    'SELECT 1',
    'SELECT o.id FROM orders o WHERE o.total > 5 -- comment',
    'WITH t AS (SELECT id FROM orders) SELECT * FROM t',
    'SELECT * FROM a UNION SELECT * FROM b',
  ])('accepts %s', async (sql) => {
    expect((await validateSelect(sql)).ok).toBe(true);
  });

  it.each([
    ['', /empty/],
    ['SELEC 1', /Syntax error/],
    ['SELECT 1; SELECT 2', /one statement/],
    ['DELETE FROM orders', /only SELECT|Only SELECT/],
    ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', /data-modifying DELETE/],
    ['WITH u AS (UPDATE orders SET total = 0 RETURNING id) SELECT * FROM u', /data-modifying UPDATE/],
    ['SELECT * INTO copy FROM orders', /SELECT INTO/],
    ['SELECT * FROM orders FOR UPDATE', /locks rows/],
    ['SELECT * FROM (SELECT * FROM orders FOR SHARE) s', /locks rows/],
    ['DROP TABLE orders', /Only SELECT/],
  ])('refuses %j', async (sql, reason) => {
    const v = await validateSelect(sql);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toMatch(reason);
  });
});
