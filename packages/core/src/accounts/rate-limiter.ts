import { AppError } from '../errors/app-error';
import type { Clock } from '../util/clock';

/** Per-user request budget, shared by all of a user's API keys and JWT sessions. */
export interface RateLimitSettings {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** The fixed window a request falls in. */
export interface RateWindow {
  nowMs: number;
  startMs: number;
}

export function rateWindowOf(settings: RateLimitSettings, clock: Clock): RateWindow {
  const nowMs = clock.now().getTime();
  return { nowMs, startMs: Math.floor(nowMs / settings.windowMs) * settings.windowMs };
}

/**
 * The upsert that counts requests in their window, as SQL to embed in a larger statement: one,
 * or as many as the parameter `requests` names (a lease, rate-limit-leases.ts). `user` and
 * `windowStart` name its parameters. It returns the window's new `count`.
 */
export const countRequestSql = (user: string, windowStart: string, requests = '1'): string =>
  `INSERT INTO rate_limit_windows (user_id, window_start, count) VALUES (${user}, ${windowStart}, ${requests})
     ON CONFLICT (user_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
     RETURNING count`;

/** RATE_LIMITED with Retry-After: the seconds until `window` ends. */
export function rateLimited(settings: RateLimitSettings, window: RateWindow): AppError {
  const retryAfter = Math.max(1, Math.ceil((window.startMs + settings.windowMs - window.nowMs) / 1000));
  return new AppError('RATE_LIMITED', `Rate limit of ${settings.limit} requests per ${settings.windowMs / 1000} s exceeded; retry after ${retryAfter} s.`, {
    headers: { 'Retry-After': String(retryAfter) },
    details: { limit: settings.limit, window_seconds: settings.windowMs / 1000, retry_after_seconds: retryAfter },
  });
}
