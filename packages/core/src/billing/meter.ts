import type { RateLimitLeases } from '../accounts/rate-limit-leases';
import { countRequestSql, type RateLimitSettings, type RateWindow } from '../accounts/rate-limiter';
import { AppError } from '../errors/app-error';
import type { Queryable } from '../store/store';
import type { Clock } from '../util/clock';
import { iso } from '../util/timestamps';
import { PRICE_PER_REQUEST } from './prices';

export interface Balance {
  balance: string;
  total_spent: string;
  total_requests: number;
  cost_per_request: string;
}

export interface UsageRecord {
  path: string;
  method: string;
  cost: string;
  created_at: string;
}

// $1 user, $2 price, $3 method, $4 path. The guarded UPDATE re-checks the balance under its row lock.
const CHARGE_SQL = `UPDATE users
          SET balance = balance - $2::numeric,
              total_spent = total_spent + $2::numeric,
              total_requests = total_requests + 1
        WHERE id = $1 AND balance >= $2::numeric`;
const RECORD_SQL = `INSERT INTO usage_records (user_id, method, path, cost) SELECT $1, $3, $4, $2::numeric FROM charged`;

function insufficient(price: string): never {
  throw new AppError(
    'INSUFFICIENT_CREDITS',
    `Insufficient credits: this request costs ${price} and your balance is lower. Add credits with POST /api/v1/billing/checkout.`,
  );
}

/**
 * Takes the price of one request from the user's credits and records the request, in one
 * statement: the guarded UPDATE re-checks the balance under its row lock, so N concurrent
 * charges against credits for M < N requests let exactly M through. Returns the new balance.
 */
export async function chargeRequest(
  db: Queryable,
  userId: string,
  request: { method: string; path: string },
  price: string = PRICE_PER_REQUEST,
): Promise<string> {
  const res = await db.query<{ balance: string }>(
    `WITH charged AS (${CHARGE_SQL} RETURNING balance), recorded AS (${RECORD_SQL})
     SELECT balance::text AS balance FROM charged`,
    [userId, price, request.method, request.path],
  );
  return res.rows[0]?.balance ?? insufficient(price);
}

/** A billable request counted and charged in one statement: the window's new count, and the new balance (null: not charged). */
interface CountedCharge {
  count: number;
  balance: string | null;
}

/**
 * Counts `counted` requests in the user's rate-limit window and, only when the first of them is
 * within the limit, charges this one as {@link chargeRequest} does, in one statement: the lease
 * (RateLimitLeases.admit) and the charge of the request that takes it are one write, and a
 * rate-limited request is never charged. The leases settle the count.
 */
async function countAndCharge(
  db: Queryable,
  userId: string,
  request: { method: string; path: string },
  counted: number,
  window: RateWindow,
  limit: number,
  price: string,
): Promise<CountedCharge> {
  const res = await db.query<{ count: number; balance: string | null }>(
    `WITH counted AS (${countRequestSql('$1', '$5', '$7')}),
     charged AS (${CHARGE_SQL} AND (SELECT count FROM counted) - $7 < $6 RETURNING balance),
     recorded AS (${RECORD_SQL})
     SELECT (SELECT count FROM counted) AS count, (SELECT balance::text FROM charged) AS balance`,
    [userId, price, request.method, request.path, new Date(window.startMs), limit, counted],
  );
  const row = res.rows[0]!;
  return { count: Number(row.count), balance: row.balance };
}

/**
 * A billable request's admission: counted against the user's rate limit, then charged; a
 * rate-limited request is never charged. A request this process already counted (a lease in
 * `leases`) pays the charge alone; one that finds no lease left takes the next lease and pays its
 * charge in the same statement. So with leases of 1 (the cloud's default) every request is one
 * write, and locally most are the charge's write alone. Throws RATE_LIMITED or
 * INSUFFICIENT_CREDITS; returns the new balance.
 */
export async function admitBillableRequest(
  db: Queryable,
  leases: RateLimitLeases,
  userId: string,
  request: { method: string; path: string },
  rateLimit: RateLimitSettings,
  clock: Clock,
  price: string = PRICE_PER_REQUEST,
): Promise<string> {
  const leased = await leases.admit(db, userId, rateLimit, clock, (size, window) => countAndCharge(db, userId, request, size, window, rateLimit.limit, price));
  if (!leased) return chargeRequest(db, userId, request, price);
  return leased.balance ?? insufficient(price);
}

export async function getBalance(db: Queryable, userId: string): Promise<Balance> {
  const res = await db.query<{ balance: string; total_spent: string; total_requests: number }>(
    'SELECT balance::text AS balance, total_spent::text AS total_spent, total_requests FROM users WHERE id = $1',
    [userId],
  );
  const row = res.rows[0];
  if (!row) throw new AppError('NOT_FOUND', 'account not found');
  return {
    balance: row.balance,
    total_spent: row.total_spent,
    total_requests: Number(row.total_requests),
    cost_per_request: PRICE_PER_REQUEST,
  };
}

/** The last 100 billable requests, newest first (spec section 8). */
export async function listUsage(db: Queryable, userId: string): Promise<UsageRecord[]> {
  const res = await db.query<{ path: string; method: string; cost: string; created_at: unknown }>(
    `SELECT path, method, cost::text AS cost, created_at FROM usage_records
     WHERE user_id = $1 ORDER BY id DESC LIMIT 100`,
    [userId],
  );
  return res.rows.map((r) => ({ path: r.path, method: r.method, cost: r.cost, created_at: iso(r.created_at) }));
}
