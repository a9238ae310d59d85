import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set W for `bench/lock-timing.ts` (issue #32, thirteenth round), written and committed
 * before the round's first model change, to be run once on the model the round ends with. Shapes
 * no earlier set or calibration table has:
 * - software subscriptions: an identity key, a customer they reference (a parent of 60k rows), a
 *   plan in text with six values, a status in text with four, a billing period in `tstzrange`, a
 *   seat count in smallint, a monthly amount in numeric, a renewal flag, a uuid from the payment
 *   provider, a small jsonb of feature flags; three indexes besides the key (the customer, the
 *   plan and status together, a unique one on the uuid);
 * - statements: a CHECK on the seats, a foreign key validated, an UPDATE turning renewal off for
 *   one plan (a column no index reads), an UPDATE raising the amounts of every third customer (an
 *   expression the planner cannot estimate), an UPDATE expiring the rows whose period ended (an
 *   indexed status, through a range operator), a DELETE of the cancelled rows of the older half,
 *   a DELETE of a range of customers (through their index), an INSERT ... SELECT copying one
 *   plan's rows into an archive, a GiST index on the period (no earlier set has a range type), an
 *   index on the amount descending with the key, an expression index on a jsonb flag, the seats'
 *   type changed to int (a rewrite rebuilding four indexes), SET NOT NULL on the plan and a
 *   column added with a stable default (the catalog only).
 * Variant A: 1M subscriptions in key order, customers taking turns, periods following the key,
 * two flags each. Variant B: 350k subscriptions with customers skewed (a tenth of them hold most
 * rows), periods in no order, flags of about 300 bytes, at fillfactor 85.
 */
export function setW(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const customers = 60_000;
  const customer = b ? `1 + ((g * 7919) % 6000 + (g % 10) * (g % 10) * 600) % ${customers}` : `1 + g % ${customers}`;
  const start = b ? `timestamptz '2023-01-01' + ((g * 104729) % 1000) * interval '1 day'` : `timestamptz '2023-01-01' + (g * 1000 / ${n}) * interval '1 day'`;
  const flags = b
    ? `jsonb_build_object('sso', g % 3 = 0, 'audit', g % 4 = 0, 'region', 'eu-' || (g % 5), 'limits', jsonb_build_object('api', g % 1000, 'storage', g % 5000), 'note', repeat(md5(g::text), 6))`
    : `jsonb_build_object('sso', g % 3 = 0, 'audit', g % 4 = 0)`;
  const setup = [
    `DROP TABLE IF EXISTS hw_subscriptions, hw_customers, hw_archive CASCADE`,
    `CREATE TABLE hw_customers (id int PRIMARY KEY, name text NOT NULL, country char(2) NOT NULL)`,
    `INSERT INTO hw_customers SELECT g, 'Customer ' || g, (ARRAY['DE','FR','US','JP','BR'])[1 + g % 5] FROM generate_series(1, ${customers}) g`,
    `CREATE TABLE hw_subscriptions (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, customer_id int NOT NULL, plan text, status text NOT NULL,
       period tstzrange NOT NULL, seats smallint NOT NULL, amount numeric(10, 2) NOT NULL, renews boolean NOT NULL, provider_ref uuid NOT NULL,
       flags jsonb NOT NULL)${b ? ' WITH (fillfactor = 85)' : ''}`,
    `INSERT INTO hw_subscriptions (customer_id, plan, status, period, seats, amount, renews, provider_ref, flags)
     SELECT ${customer}, (ARRAY['free','starter','team','business','enterprise','legacy'])[1 + (g * 5) % 6],
            (ARRAY['active','active','cancelled','past_due'])[1 + (g * 3) % 4],
            tstzrange(${start}, ${start} + (30 + g % 335) * interval '1 day'), (1 + g % 50)::smallint, ((g * 37) % 50000) / 100.0,
            g % 5 <> 0, md5('sub' || g)::uuid, ${flags}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hw_subscriptions_customer ON hw_subscriptions (customer_id)`,
    `CREATE INDEX hw_subscriptions_plan_status ON hw_subscriptions (plan, status)`,
    `CREATE UNIQUE INDEX hw_subscriptions_ref ON hw_subscriptions (provider_ref)`,
    `CREATE TABLE hw_archive (LIKE hw_subscriptions)`,
    `VACUUM ANALYZE hw_customers, hw_subscriptions`,
  ];
  const statements = [
    `ALTER TABLE hw_subscriptions ADD CONSTRAINT hw_seats_sane CHECK (seats > 0 AND seats <= 1000)`,
    `SETUP ALTER TABLE hw_subscriptions ADD CONSTRAINT hw_subscriptions_customer_fk FOREIGN KEY (customer_id) REFERENCES hw_customers (id) NOT VALID`,
    `ALTER TABLE hw_subscriptions VALIDATE CONSTRAINT hw_subscriptions_customer_fk`,
    `UPDATE hw_subscriptions SET renews = false WHERE plan = 'legacy'`,
    `UPDATE hw_subscriptions SET amount = amount * 1.1 WHERE customer_id % 3 = 0`,
    `UPDATE hw_subscriptions SET status = 'expired' WHERE period << tstzrange(timestamptz '2023-06-01', NULL)`,
    `DELETE FROM hw_subscriptions WHERE status = 'cancelled' AND id < ${Math.floor(n / 2)}`,
    `DELETE FROM hw_subscriptions WHERE customer_id BETWEEN 1000 AND 1600`,
    `INSERT INTO hw_archive SELECT * FROM hw_subscriptions WHERE plan = 'free'`,
    `CREATE INDEX hw_w1 ON hw_subscriptions USING gist (period)`,
    `DROP INDEX hw_w1`,
    `CREATE INDEX hw_w2 ON hw_subscriptions (amount DESC, id)`,
    `DROP INDEX hw_w2`,
    `CREATE INDEX hw_w3 ON hw_subscriptions (((flags ->> 'sso')::boolean))`,
    `DROP INDEX hw_w3`,
    `ALTER TABLE hw_subscriptions ALTER COLUMN seats TYPE int`,
    `ALTER TABLE hw_subscriptions ALTER COLUMN plan SET NOT NULL`,
    `ALTER TABLE hw_subscriptions ADD COLUMN created_at timestamptz DEFAULT now()`,
  ];
  return { setup, statements, tableOf: (sql) => (sql.startsWith('INSERT INTO hw_archive') ? 'hw_archive' : 'hw_subscriptions') };
}
