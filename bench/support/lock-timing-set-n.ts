import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set N for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's last model change (validation scans priced from the preflight's scan) and run once
 * on the model as the round leaves it. Shapes no earlier set or calibration table has:
 * - card payments keyed by a uuid, bigint cents, a text currency, a text status, a nullable
 *   capture time, jsonb metadata, `char(4)`, `real` risk, merchants to reference, and an archive
 *   table without indexes;
 * - statements: a CHECK calling upper(), a foreign key added in one step, SET NOT NULL, a CHECK
 *   on jsonb_typeof(), an UPDATE of pending rows by age, a jsonb merge over a third of the rows, a
 *   DELETE on a real, an INSERT ... SELECT into the archive, a partial two-column index, an index
 *   on a jsonb field, BRIN, a char(4) index, real to numeric(5,4), a volatile uuid default.
 * Variant A: 1M payments over 10,000 merchants with small metadata. Variant B: 350k payments
 * with metadata of about 800 bytes, 60 % of them at 50 merchants.
 */
export function setN(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const merchants = 10_000;
  const merchant = b ? `CASE WHEN g % 5 < 3 THEN 1 + g % 50 ELSE 1 + (g * 13) % ${merchants} END` : `1 + (g * 13) % ${merchants}`;
  const metadata = b
    ? `jsonb_build_object('order_ref', 'ORD-' || g, 'agent', repeat('x', 600), 'tags', jsonb_build_array('a' || g % 7, 'b' || g % 11))`
    : `jsonb_build_object('order_ref', 'ORD-' || g, 'channel', (ARRAY['web','app','pos'])[1 + g % 3])`;
  const setup = [
    `DROP TABLE IF EXISTS hn_payments_archive, hn_payments, hn_merchants CASCADE`,
    `CREATE TABLE hn_merchants (id int PRIMARY KEY, name text NOT NULL)`,
    `INSERT INTO hn_merchants SELECT g, 'merchant ' || g FROM generate_series(1, ${merchants}) g`,
    `CREATE TABLE hn_payments (id uuid PRIMARY KEY, merchant_id int NOT NULL, amount_cents bigint NOT NULL, currency text NOT NULL, status text NOT NULL,
       created_at timestamptz, captured_at timestamptz, metadata jsonb NOT NULL, card_last4 char(4) NOT NULL, risk real NOT NULL)`,
    `INSERT INTO hn_payments SELECT md5('p' || g)::uuid, ${merchant}, 100 + (g * 7919) % 500000, (ARRAY['EUR','USD','GBP'])[1 + g % 3],
       CASE WHEN g % 10 < 7 THEN 'captured' WHEN g % 10 < 9 THEN 'pending' ELSE 'failed' END,
       timestamptz '2023-06-01' + g * interval '30 seconds', CASE WHEN g % 10 < 7 THEN timestamptz '2023-06-01' + g * interval '30 seconds' + interval '5 minutes' END,
       ${metadata}, lpad(((g * 37) % 10000)::text, 4, '0'), ((g * 104729) % 10000) / 10000.0
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hn_payments_merchant ON hn_payments (merchant_id)`,
    `CREATE INDEX hn_payments_created ON hn_payments (created_at)`,
    `CREATE TABLE hn_payments_archive (LIKE hn_payments)`,
    `VACUUM ANALYZE hn_merchants, hn_payments, hn_payments_archive`,
  ];
  const at = (share: number) => `timestamptz '2023-06-01' + interval '${Math.round(n * 30 * share)} seconds'`;
  const statements = [
    `ALTER TABLE hn_payments ADD CONSTRAINT hn_amount_ok CHECK (amount_cents > 0 AND currency = upper(currency))`,
    `ALTER TABLE hn_payments ADD CONSTRAINT hn_payments_merchant FOREIGN KEY (merchant_id) REFERENCES hn_merchants (id)`,
    `ALTER TABLE hn_payments ALTER COLUMN created_at SET NOT NULL`,
    `ALTER TABLE hn_payments ADD CONSTRAINT hn_meta_object CHECK (jsonb_typeof(metadata) = 'object')`,
    `UPDATE hn_payments SET status = 'expired' WHERE status = 'pending' AND created_at < ${at(0.3)}`,
    `UPDATE hn_payments SET metadata = metadata || '{"migrated": true}' WHERE currency = 'EUR'`,
    `DELETE FROM hn_payments WHERE risk > 0.98`,
    `INSERT INTO hn_payments_archive SELECT * FROM hn_payments WHERE captured_at < ${at(0.25)}`,
    `CREATE INDEX hn_n1 ON hn_payments (merchant_id, created_at) WHERE status = 'captured'`,
    `DROP INDEX hn_n1`,
    `CREATE INDEX hn_n2 ON hn_payments ((metadata ->> 'order_ref'))`,
    `DROP INDEX hn_n2`,
    `CREATE INDEX hn_n3 ON hn_payments USING brin (created_at)`,
    `DROP INDEX hn_n3`,
    `CREATE INDEX hn_n4 ON hn_payments (card_last4)`,
    `DROP INDEX hn_n4`,
    `ALTER TABLE hn_payments ALTER COLUMN risk TYPE numeric(5, 4)`,
    `ALTER TABLE hn_payments ADD COLUMN ref uuid DEFAULT gen_random_uuid()`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^INSERT INTO hn_payments_archive/.test(sql) ? 'hn_payments_archive' : 'hn_payments'),
  };
}
