import { describe, expect, it } from 'vitest';
import { riskCategory, riskScore } from './risk-score';

describe('risk score', () => {
  it('maps the spec thresholds exactly', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(riskCategory)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high', 'critical', 'critical']);
  });

  it('grows with lock strength, duration, destruction and blast radius, capped at 100', () => {
    const base = {
      lock: 'ACCESS EXCLUSIVE' as const,
      effect: 'catalog' as const,
      existingTable: true,
      durationMs: 5,
      destructive: null,
      cascadeTables: 0,
      cascadeDepth: 0,
      indexComplexity: 0,
      extra: 0,
    };
    const catalog = riskScore(base);
    const rewrite = riskScore({ ...base, effect: 'rewrite', durationMs: 120_000 });
    const drop = riskScore({ ...base, destructive: 'DROP TABLE', cascadeTables: 4, cascadeDepth: 3 });
    expect(catalog).toBeLessThan(25);
    expect(rewrite).toBeGreaterThanOrEqual(50);
    expect(drop).toBeGreaterThanOrEqual(75);
    expect(riskScore({ ...base, destructive: 'DROP DATABASE', cascadeTables: 10, cascadeDepth: 5, durationMs: 1e9, extra: 50 })).toBe(100);
    expect(riskScore({ ...base, existingTable: false })).toBe(0);
  });
});
