import { describe, expect, it } from 'vitest';
import { CHECKOUT_AMOUNTS, creditsFor, isCheckoutAmount } from './credit-packs';

describe('credit packs', () => {
  it('buys one credit dollar per 100 cents, as NUMERIC text', () => {
    expect(CHECKOUT_AMOUNTS.map(creditsFor)).toEqual(['5.0000', '10.0000', '25.0000', '50.0000']);
  });

  it('allows exactly the amounts of the spec', () => {
    expect([500, 1000, 2500, 5000].every(isCheckoutAmount)).toBe(true);
    expect([0, 499, 501, 750, 10000, -500, 1000.5].some(isCheckoutAmount)).toBe(false);
  });
});
