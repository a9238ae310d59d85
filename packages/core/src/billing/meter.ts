import { AppError } from '../errors/app-error';
import type { Queryable } from '../store/store';
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
    `WITH charged AS (
       UPDATE users
          SET balance = balance - $2::numeric,
              total_spent = total_spent + $2::numeric,
              total_requests = total_requests + 1
        WHERE id = $1 AND balance >= $2::numeric
       RETURNING balance
     ), recorded AS (
       INSERT INTO usage_records (user_id, method, path, cost)
       SELECT $1, $3, $4, $2::numeric FROM charged
     )
     SELECT balance::text AS balance FROM charged`,
    [userId, price, request.method, request.path],
  );
  const row = res.rows[0];
  if (!row) {
    throw new AppError('INSUFFICIENT_CREDITS', `Insufficient credits: this request costs ${price} and your balance is lower. Add credits with POST /api/v1/billing/checkout.`);
  }
  return row.balance;
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
