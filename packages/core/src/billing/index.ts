export { type Balance, admitBillableRequest, getBalance, listUsage, type UsageRecord } from './meter';
export { applyPaymentEvent, isEventKnown, PAYMENT_SUCCEEDED_EVENTS, type PaymentEventOutcome } from './payments/apply-payment-event';
export { type BillingSettings, loadBillingSettings } from './payments/billing-settings';
export { CHECKOUT_AMOUNTS } from './payments/credit-packs';
export { listPayments, type PaymentRecord } from './payments/list-payments';
export {
  type CheckoutSession,
  type CheckoutSessionRequest,
  type CheckoutSessionSnapshot,
  type PaymentProvider,
  type VerifiedPaymentEvent,
} from './payments/payment-provider';
export { type CheckoutStarted, startCheckout } from './payments/start-checkout';
