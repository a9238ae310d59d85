import type { SchemaMigration } from '../migrate';

/** Schema of the billing feature; owned by its issue. Append, never edit an applied entry. */
export const billingMigrations: readonly SchemaMigration[] = [
  {
    id: '0601_payments',
    statements: [
      // One row per checkout session. The session id is unique, so a session can complete
      // (and add credits) at most once whatever the number of events that report it.
      `CREATE TABLE payments (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider text NOT NULL,
        session_id text NOT NULL UNIQUE,
        amount_cents integer NOT NULL CHECK (amount_cents IN (500, 1000, 2500, 5000)),
        currency text NOT NULL,
        credits numeric(20,4) NOT NULL CHECK (credits > 0),
        credits_added numeric(20,4) NOT NULL DEFAULT 0 CHECK (credits_added >= 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'expired', 'failed')),
        receipt_url text,
        payment_intent_id text,
        completed_by_event text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`,
      `CREATE INDEX payments_user_recent ON payments (user_id, created_at DESC)`,
      // Every verified event, keyed by the provider's event id: a redelivery finds its row and
      // changes nothing. Payloads are kept only for events a human must review.
      `CREATE TABLE payment_events (
        event_id text PRIMARY KEY,
        provider text NOT NULL,
        type text NOT NULL,
        session_id text,
        outcome text NOT NULL CHECK (outcome IN ('applied', 'already_applied', 'recorded', 'ignored', 'needs_review')),
        review_reason text,
        payload jsonb,
        received_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX payment_events_review ON payment_events (received_at) WHERE outcome = 'needs_review'`,
    ],
  },
];
