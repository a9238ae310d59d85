/**
 * How long a statement of one /execute request may run. API Gateway HTTP APIs answer no request
 * after 30 s (the integration timeout cannot be raised) and the function stops at its own
 * timeout; a statement still running then is not cancelled by anyone, and a write commits after
 * the caller was told the request failed. So the statement gets what remains of that window
 * minus {@link ANSWER_MARGIN_MS}, the time the watchdog needs to cancel or terminate it, see it
 * gone and answer, however much `timeout_seconds` (up to 120 by the spec) asks for.
 */

/** Watchdog grace (1 s) + terminate (1 s) + waiting for the backend to be gone (up to 1.5 s) + the answer. */
export const ANSWER_MARGIN_MS = 4000;

/** The spec's smallest timeout_seconds: a statement always gets at least this. */
const MIN_STATEMENT_MS = 1000;

/** The window the answer must fit in: when it must be sent, and the gateway limit that set it. */
export interface AnswerBudget {
  /** Epoch ms by which the answer must have been sent. */
  answerBy: number;
  /** The gateway's limit in seconds, named in what the caller is told. */
  gatewaySeconds: number;
}

/**
 * The answer's deadline: the gateway's limit counted from when the gateway received the request,
 * or the function's own remaining time when that ends first (a Lambda stops at its timeout).
 */
export function answerBudget(input: { requestStartMs: number; gatewaySeconds: number; lambdaRemainingMs?: number; now: number }): AnswerBudget {
  const byGateway = input.requestStartMs + input.gatewaySeconds * 1000;
  const byFunction = input.lambdaRemainingMs === undefined ? Infinity : input.now + input.lambdaRemainingMs;
  return { answerBy: Math.min(byGateway, byFunction), gatewaySeconds: input.gatewaySeconds };
}

/** The statement limit actually applied, and whether the request's own was cut to fit the budget. */
export interface AppliedTimeout {
  requestedMs: number;
  appliedMs: number;
  capped: boolean;
}

/**
 * The limit for a statement starting at `now`. Whole seconds: a request arriving fresh gets
 * exactly {@link defaultStatementLimitMs}, which pooled sessions already have, so the common
 * request needs no `SET statement_timeout` round trip.
 */
export function applyBudget(timeoutSeconds: number, budget: AnswerBudget | undefined, now: number): AppliedTimeout {
  const requestedMs = Math.round(timeoutSeconds * 1000);
  if (!budget) return { requestedMs, appliedMs: requestedMs, capped: false };
  // Less 1 ms, as defaultStatementLimitMs: a request handled within the millisecond it arrived
  // gets the pooled sessions' limit too, not a second more that costs a SET round trip.
  const available = Math.max(MIN_STATEMENT_MS, Math.floor((budget.answerBy - now - ANSWER_MARGIN_MS - 1) / 1000) * 1000);
  return available < requestedMs ? { requestedMs, appliedMs: available, capped: true } : { requestedMs, appliedMs: requestedMs, capped: false };
}

/** The limit a request arriving within its first second gets: 25 s for the 30 s gateway. */
export const defaultStatementLimitMs = (gatewaySeconds: number): number =>
  Math.max(MIN_STATEMENT_MS, Math.floor((gatewaySeconds * 1000 - ANSWER_MARGIN_MS - 1) / 1000) * 1000);

/** What a response says about a capped timeout. */
export interface TimeoutNotice {
  requested_seconds: number;
  applied_seconds: number;
  capped: true;
  reason: string;
}

export function timeoutNotice(applied: AppliedTimeout, budget: AnswerBudget): TimeoutNotice {
  return {
    requested_seconds: applied.requestedMs / 1000,
    applied_seconds: Math.floor(applied.appliedMs / 100) / 10,
    capped: true,
    reason: `The API gateway answers no request after ${budget.gatewaySeconds} s, so a statement gets what remains of that window minus ${ANSWER_MARGIN_MS / 1000} s to cancel it, roll it back and answer. Run longer work as a migration (POST /migrations/execute runs asynchronously).`,
  };
}
