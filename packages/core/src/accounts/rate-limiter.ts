import { AppError } from '../errors/app-error';
import type { Queryable } from '../store/store';
import type { Clock } from '../util/clock';

/** Per-user request budget, shared by all of a user's API keys and JWT sessions. */
export interface RateLimitSettings {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/**
 * Counts a request against the user's fixed window in the state store (so the count holds
 * across Lambda instances) and throws RATE_LIMITED with Retry-After once it is spent.
 */
export async function consumeRateLimit(db: Queryable, userId: string, settings: RateLimitSettings, clock: Clock): Promise<void> {
  const nowMs = clock.now().getTime();
  const windowStartMs = Math.floor(nowMs / settings.windowMs) * settings.windowMs;
  const res = await db.query<{ count: number }>(
    `INSERT INTO rate_limit_windows (user_id, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (user_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
     RETURNING count`,
    [userId, new Date(windowStartMs)],
  );
  const count = Number(res.rows[0]?.count ?? 0);
  if (count === 1) {
    // First request of a new window: old windows of this user are of no further use.
    await db.query('DELETE FROM rate_limit_windows WHERE user_id = $1 AND window_start < $2', [userId, new Date(windowStartMs)]);
  }
  if (count > settings.limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStartMs + settings.windowMs - nowMs) / 1000));
    throw new AppError('RATE_LIMITED', `Rate limit of ${settings.limit} requests per ${settings.windowMs / 1000} s exceeded; retry after ${retryAfter} s.`, {
      headers: { 'Retry-After': String(retryAfter) },
      details: { limit: settings.limit, window_seconds: settings.windowMs / 1000, retry_after_seconds: retryAfter },
    });
  }
}
