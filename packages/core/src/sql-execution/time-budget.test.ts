import { describe, expect, it } from 'vitest';
import { answerBudget, applyBudget, defaultStatementLimitMs } from './time-budget';

describe('the statement limit of an /execute request', () => {
  const budget = answerBudget({ requestStartMs: 1_000_000, gatewaySeconds: 30, now: 1_000_000 });

  it("is the pooled sessions' limit for a request handled within its first second, even in the millisecond it arrived", () => {
    expect(defaultStatementLimitMs(30)).toBe(25_000);
    for (const elapsed of [0, 1, 500, 999]) expect(applyBudget(30, budget, 1_000_000 + elapsed).appliedMs, `${elapsed} ms`).toBe(25_000);
    expect(applyBudget(30, budget, 1_000_000 + 1001).appliedMs).toBe(24_000);
  });

  it('keeps a shorter request as asked, and never goes below a second', () => {
    expect(applyBudget(5, budget, 1_000_000)).toEqual({ requestedMs: 5000, appliedMs: 5000, capped: false });
    expect(applyBudget(30, budget, 1_000_000 + 29_000)).toMatchObject({ appliedMs: 1000, capped: true });
  });
});
