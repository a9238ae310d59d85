/** The checkout amounts the spec allows (section 8), in cents of the checkout currency. */
export const CHECKOUT_AMOUNTS = [500, 1000, 2500, 5000] as const;

export type CheckoutAmount = (typeof CHECKOUT_AMOUNTS)[number];

/** Currency of every checkout; credits are dollars, so one cent buys one hundredth of a credit. */
export const CHECKOUT_CURRENCY = 'usd';

export const isCheckoutAmount = (value: number): value is CheckoutAmount => (CHECKOUT_AMOUNTS as readonly number[]).includes(value);

/**
 * Credits bought by `amountCents`, as the NUMERIC(20,4) text the balance uses
 * (500 -> "5.0000"). Integer arithmetic only, so no float ever touches money.
 */
export function creditsFor(amountCents: CheckoutAmount): string {
  const whole = Math.trunc(amountCents / 100);
  const cents = amountCents % 100;
  return `${whole}.${String(cents).padStart(2, '0')}00`;
}
