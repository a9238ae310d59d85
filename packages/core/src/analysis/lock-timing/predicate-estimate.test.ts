import { describe, expect, it } from 'vitest';
import { parseTreeSync, ensureParser } from '../../pg/parser';
import type { AstNode } from '../ast';
import { weakEstimateReason } from './predicate-estimate';

await ensureParser();
const where = (w: string): AstNode => parseTreeSync(`DELETE FROM t WHERE ${w}`).stmts[0]!.stmt.DeleteStmt.whereClause as AstNode;
const stats = new Set(['id', 'kind', 'created_at']);

describe('is the planner estimate of a WHERE a guess?', () => {
  it('trusts comparisons of columns with statistics to constants, however combined', () => {
    for (const w of [
      'id = 5',
      'id > 10 AND id <= 20',
      "id BETWEEN 1 AND 100 OR kind IN ('a', 'b')",
      "created_at < '2024-01-01'::timestamptz",
      'kind IS NULL',
      "NOT (kind LIKE 'a%')",
      '5 < id',
      "created_at > '2024-01-01'::timestamptz + interval '30 days'",
      'id > -5',
    ])
      expect(weakEstimateReason(where(w), stats), w).toBeNull();
  });

  it('names why an estimate is a default guess', () => {
    expect(weakEstimateReason(where('id % 10 = 0'), stats)).toBe('it compares an expression');
    expect(weakEstimateReason(where('lower(kind) = $$x$$'), stats)).toBe('it compares an expression');
    expect(weakEstimateReason(where('id = other_id'), stats)).toBe('it compares two expressions');
    expect(weakEstimateReason(where("note = 'x'"), stats)).toBe('column note has no statistics');
    expect(weakEstimateReason(where("kind = 'x' AND f(id)"), stats)).toMatch(/func call/);
  });

  it('takes conditions on several columns joined by AND as a guess, unless extended statistics cover them together', () => {
    // The planner multiplies the selectivities as if kind and created_at were independent.
    const both = where("kind = 'x' AND created_at < '2024-01-01' AND id > 10");
    expect(weakEstimateReason(both, stats)).toBe('it combines conditions on columns created_at, id and kind, which the planner takes as independent');
    expect(weakEstimateReason(both, stats, [new Set(['kind', 'id'])])).not.toBeNull();
    expect(weakEstimateReason(both, stats, [new Set(['kind', 'id', 'created_at', 'other'])])).toBeNull();
    // An OR of two columns' conditions is a sum, not a product: still trusted.
    expect(weakEstimateReason(where("kind = 'x' OR id > 10"), stats)).toBeNull();
  });
});
