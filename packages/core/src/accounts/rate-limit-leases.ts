import { countRequestSql, type RateLimitSettings, type RateWindow, rateLimited, rateWindowOf } from './rate-limiter';
import type { Queryable } from '../store/store';
import type { Clock } from '../util/clock';

interface UserWindow {
  startMs: number;
  /** Requests counted in the store for this process and not used yet. */
  left: number;
  /** The window's count in the store after this process's last lease. */
  lastCount: number;
  /** The store said the window is spent: every further request in it is refused. */
  spent: boolean;
  pending: Promise<void> | undefined;
}

/** Most users whose windows are remembered; the oldest is dropped past it. */
const MAX_USERS = 10_000;

/**
 * The rate limit counted in the state store by leases: instead of one upsert per request, this
 * process adds up to `maxLease` (`DBOPS_RATE_LIMIT_LEASE`) requests at once to the user's window
 * and hands them out from memory. The store's count is never below the requests served, so the
 * limit holds across processes; a lease is at most an eighth of what the window had left, so
 * near the limit leases shrink to one request and the count is exact. What a process leased and
 * did not use (it stopped, or its user went quiet) is lost for the rest of that window: with
 * several processes serving one user, the user may be refused somewhat before the limit, never
 * after it. `maxLease` 1 counts every request in the store, as before leases.
 */
export class RateLimitLeases {
  readonly #maxLease: number;
  readonly #users = new Map<string, UserWindow>();

  constructor(maxLease: number) {
    this.#maxLease = Math.max(1, Math.floor(maxLease));
  }

  /** Counts one request of `userId`; throws RATE_LIMITED once the window is spent. */
  async consume(db: Queryable, userId: string, settings: RateLimitSettings, clock: Clock): Promise<void> {
    await this.admit(db, userId, settings, clock, async (size, window) => {
      const res = await db.query<{ count: number }>(countRequestSql('$1', '$2', '$3'), [userId, new Date(window.startMs), size]);
      return { count: Number(res.rows[0]?.count ?? 0) };
    });
  }

  /**
   * Counts one request of `userId` and throws RATE_LIMITED once the window is spent. A request
   * this process already leased is taken from memory (returns undefined). Otherwise the request
   * takes the next lease itself: `take(size, window)` is the caller's statement, which counts
   * `size` requests in the store's window, does the request's own work only when the first of
   * them is within the limit (`count - size + 1 <= limit`), and returns the window's new count.
   * So a billable request that finds no lease left counts the lease and pays its charge in one
   * write, and the requests after it pay the charge alone.
   */
  async admit<T extends { count: number }>(
    db: Queryable,
    userId: string,
    settings: RateLimitSettings,
    clock: Clock,
    take: (size: number, window: RateWindow) => Promise<T>,
  ): Promise<T | undefined> {
    for (;;) {
      const window = rateWindowOf(settings, clock);
      const w = this.#windowOf(userId, window);
      if (w.left > 0) {
        w.left--;
        return undefined;
      }
      if (w.spent) throw rateLimited(settings, window);
      // One lease at a time per user: concurrent requests wait for it instead of each taking one.
      if (w.pending) {
        await w.pending;
        continue;
      }
      const size = Math.min(this.#maxLease, Math.max(1, Math.floor((settings.limit - w.lastCount) / 8)));
      let taken: T | undefined;
      let usable = 0;
      // The lease is pending until it is settled, so a request waiting on it finds its share in memory.
      const leasing = (async () => {
        taken = await take(size, window);
        usable = await this.#settle(db, userId, w, size, taken.count, settings, window);
        w.left += Math.max(0, usable - 1); // the first of the lease is this request
      })();
      w.pending = leasing.then(
        () => undefined,
        () => undefined,
      );
      try {
        await leasing;
      } finally {
        w.pending = undefined;
      }
      if (usable === 0) throw rateLimited(settings, window);
      return taken!;
    }
  }

  #windowOf(userId: string, window: RateWindow): UserWindow {
    let w = this.#users.get(userId);
    if (w?.startMs !== window.startMs) {
      this.#users.delete(userId);
      if (this.#users.size >= MAX_USERS) this.#users.delete(this.#users.keys().next().value!);
      w = { startMs: window.startMs, left: 0, lastCount: 0, spent: false, pending: undefined };
      this.#users.set(userId, w);
    }
    return w;
  }

  /** Records a lease of `size` the store counted up to `count`; returns how many of it may be served. */
  async #settle(db: Queryable, userId: string, w: UserWindow, size: number, count: number, settings: RateLimitSettings, window: RateWindow): Promise<number> {
    // First lease of the window in the store: the user's older windows are of no further use.
    if (count === size) await db.query('DELETE FROM rate_limit_windows WHERE user_id = $1 AND window_start < $2', [userId, new Date(window.startMs)]);
    w.lastCount = Math.max(w.lastCount, count);
    // Of the `size` requests just counted, those at or under the limit may be served.
    const usable = Math.max(0, Math.min(size, settings.limit - (count - size)));
    if (usable < size) w.spent = true;
    return usable;
  }
}
