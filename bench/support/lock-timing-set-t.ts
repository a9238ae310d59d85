import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set T for `bench/lock-timing.ts` (issue #32, tenth round), written and committed
 * before the round's first model change, to be run once on the model the round ends with. Shapes
 * no earlier set or calibration table has:
 * - marketplace payouts: a uuid key (random order in the heap), a merchant they reference (a parent
 *   of 5k rows), a numeric amount, a text status with three values, a category in int with 40
 *   values, a created time, a text[] of labels, a small jsonb of attributes, and four indexes
 *   besides the key (merchant and time, a partial one on the pending rows, the category, GIN on
 *   the labels);
 * - two summaries filled by aggregating INSERT ... SELECTs: one with a handful of groups, one
 *   with a group per merchant and hour;
 * - statements: a CHECK on the amount, a foreign key validated, an UPDATE settling the pending
 *   rows of a time range (through the time index), an UPDATE of one category's amounts, a DELETE
 *   of the void rows, a DELETE of one merchant's rows, the two aggregating INSERTs, a btree on
 *   the amount, an expression index on the labels' count, a hash index on the uuid, SET NOT NULL
 *   on the memo, the category's type changed to bigint (a rewrite rebuilding six indexes) and a
 *   column added with a stable default (the catalog only).
 * Variant A: 800k payouts, merchants taking turns, short labels. Variant B: 300k payouts, a few
 * merchants holding most of them, wide jsonb attributes and five labels each.
 */
export function setT(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const merchants = 5_000;
  const merchant = b ? `1 + ((g % 211) * (g % 211) + g % 17) % ${merchants}` : `1 + g % ${merchants}`;
  const status = `(ARRAY['pending','paid','void'])[1 + (g * 7) % ${b ? 10 : 3} % 3]`;
  const created = b ? `timestamptz '2025-03-01' + ((g * 7919) % 2592000) * interval '1 second'` : `timestamptz '2025-03-01' + g * interval '3 seconds'`;
  const labels = b ? `ARRAY['l' || g % 50, 'l' || g % 70, 'c' || g % 9, 'r' || g % 400, 'x' || g % 3]` : `ARRAY['l' || g % 50, 'c' || g % 9]`;
  const attrs = b
    ? `jsonb_build_object('ref', md5(g::text), 'note', repeat('payout note ', 8), 'bank', 'B' || g % 90, 'fee', (g % 300) / 100.0)`
    : `jsonb_build_object('bank', 'B' || g % 90)`;
  const settleBefore = b ? `timestamptz '2025-03-05'` : `timestamptz '2025-03-09'`;
  const setup = [
    `DROP TABLE IF EXISTS ht_hourly, ht_totals, ht_payouts, ht_merchants CASCADE`,
    `CREATE TABLE ht_merchants (id int PRIMARY KEY, name text NOT NULL, country text NOT NULL)`,
    `INSERT INTO ht_merchants SELECT g, 'Merchant ' || g, (ARRAY['DE','FR','NL','US','JP'])[1 + g % 5] FROM generate_series(1, ${merchants}) g`,
    `CREATE TABLE ht_payouts (id uuid PRIMARY KEY, merchant_id int NOT NULL, amount numeric(14, 2) NOT NULL, status text NOT NULL,
       category int NOT NULL, created_at timestamptz NOT NULL, labels text[] NOT NULL, attrs jsonb NOT NULL, memo text)`,
    `INSERT INTO ht_payouts
     SELECT md5('payout' || g)::uuid, ${merchant}, ((g * 104729) % 5000000) / 100.0, ${status}, (g * 13) % 40, ${created},
            ${labels}, ${attrs}, 'memo ' || g % 1000
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX ht_payouts_merchant_at ON ht_payouts (merchant_id, created_at)`,
    `CREATE INDEX ht_payouts_pending ON ht_payouts (created_at) WHERE status = 'pending'`,
    `CREATE INDEX ht_payouts_category ON ht_payouts (category)`,
    `CREATE INDEX ht_payouts_labels ON ht_payouts USING gin (labels)`,
    `CREATE TABLE ht_totals (category int NOT NULL, status text NOT NULL, payouts bigint NOT NULL, total numeric NOT NULL, PRIMARY KEY (category, status))`,
    `CREATE TABLE ht_hourly (merchant_id int NOT NULL, hour timestamptz NOT NULL, payouts int NOT NULL, total numeric NOT NULL)`,
    `VACUUM ANALYZE ht_merchants, ht_payouts, ht_totals, ht_hourly`,
  ];
  const statements = [
    `ALTER TABLE ht_payouts ADD CONSTRAINT ht_amount_positive CHECK (amount >= 0)`,
    `SETUP ALTER TABLE ht_payouts ADD CONSTRAINT ht_payouts_merchant_fk FOREIGN KEY (merchant_id) REFERENCES ht_merchants (id) NOT VALID`,
    `ALTER TABLE ht_payouts VALIDATE CONSTRAINT ht_payouts_merchant_fk`,
    `UPDATE ht_payouts SET status = 'paid' WHERE status = 'pending' AND created_at < ${settleBefore}`,
    `UPDATE ht_payouts SET amount = amount + 0.01 WHERE category = 7`,
    `DELETE FROM ht_payouts WHERE status = 'void'`,
    `DELETE FROM ht_payouts WHERE merchant_id = 42`,
    `INSERT INTO ht_totals SELECT category, status, count(*), sum(amount) FROM ht_payouts GROUP BY category, status`,
    `INSERT INTO ht_hourly SELECT merchant_id, date_trunc('hour', created_at), count(*), sum(amount) FROM ht_payouts GROUP BY 1, 2`,
    `CREATE INDEX ht_t1 ON ht_payouts (amount)`,
    `DROP INDEX ht_t1`,
    `CREATE INDEX ht_t2 ON ht_payouts ((cardinality(labels)))`,
    `DROP INDEX ht_t2`,
    `CREATE INDEX ht_t3 ON ht_payouts USING hash (id)`,
    `DROP INDEX ht_t3`,
    `ALTER TABLE ht_payouts ALTER COLUMN memo SET NOT NULL`,
    `ALTER TABLE ht_payouts ALTER COLUMN category TYPE bigint`,
    `ALTER TABLE ht_payouts ADD COLUMN reviewed_at timestamptz DEFAULT now()`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^INSERT INTO ht_totals/.test(sql) ? 'ht_totals' : /^INSERT INTO ht_hourly/.test(sql) ? 'ht_hourly' : 'ht_payouts'),
  };
}
