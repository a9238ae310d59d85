import type { Queryable } from '../../store/store';
import { iso, isoOrNull } from '../../util/timestamps';

/** One entry of GET /billing/payments; field names are documented in docs/billing.md. */
export interface PaymentRecord {
  id: string;
  session_id: string;
  amount_cents: number;
  currency: string;
  /** Credits the checkout buys (NUMERIC text, 4 places). */
  credits: string;
  /** Credits actually added to the balance: equal to `credits` once completed, else "0.0000". */
  credits_added: string;
  status: 'pending' | 'completed' | 'expired' | 'failed';
  receipt_url: string | null;
  created_at: string;
  completed_at: string | null;
}

/** A row as the drivers return it: timestamps may be Date or text until mapped. */
type Row = Omit<PaymentRecord, 'created_at' | 'completed_at'> & { created_at: unknown; completed_at: unknown };

/** The user's payments, newest first. */
export async function listPayments(db: Queryable, userId: string): Promise<PaymentRecord[]> {
  const res = await db.query<Row>(
    `SELECT id, session_id, amount_cents, currency, credits::text AS credits, credits_added::text AS credits_added,
            status, receipt_url, created_at, completed_at
       FROM payments WHERE user_id = $1 ORDER BY created_at DESC, id`,
    [userId],
  );
  return res.rows.map((r) => ({
    id: r.id,
    session_id: r.session_id,
    amount_cents: Number(r.amount_cents),
    currency: r.currency,
    credits: r.credits,
    credits_added: r.credits_added,
    status: r.status,
    receipt_url: r.receipt_url,
    created_at: iso(r.created_at),
    completed_at: isoOrNull(r.completed_at),
  }));
}
