import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AE for `bench/lock-timing.ts` (issue #32), written and committed before set AD ran,
 * as the eighteenth round's; run once on the seventeenth round's model instead (no change came
 * between its commit and its run). Shapes no earlier set or calibration table has:
 * - money transfers between accounts: two foreign keys to the same accounts table (payer and
 *   payee, the payee's ON DELETE SET NULL), an amount in numeric(12,2), a currency in char(3) of
 *   six values, a status in text of four values, a reference in varchar(40) unique, a memo of
 *   free text with stray spaces on some rows, a creation time; four indexes besides the key (the
 *   payer and time, the payee, a partial one on pending transfers, the unique reference);
 * - statements: a CHECK on the amount, both foreign keys validated, an UPDATE settling old
 *   pending transfers, an UPDATE trimming memos that have stray spaces, a DELETE of failed
 *   transfers of one currency, a DELETE of closed accounts setting their received transfers'
 *   payee to NULL (and looking up their paid ones), an aggregating INSERT of daily totals by
 *   currency, an index on the amount, an index on currency and time, an index on the upper-cased
 *   memo, an index on the status built CONCURRENTLY, the amount widened to numeric(16,2), SET NOT
 *   NULL on the currency, and two catalog statements (a nullable column, a default set).
 * Variant A: 1.5M transfers in time order, 100k accounts paying in turn. Variant B: 500k transfers
 * in no order, a hundredth of the accounts paying most, memos of about 200 bytes on a fifth of
 * the rows, at fillfactor 80.
 */
export function setAE(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const accounts = 100_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n): times and payers in no heap order. In bigint: the products pass 2^31.
  const k = b ? `((g::bigint * 104729) % ${n} + 1)` : 'g::bigint';
  const payer = b ? `CASE WHEN ${k} % 4 < 3 THEN 1 + (${k} * 7) % 1000 ELSE 1 + (${k} * 31) % ${accounts} END` : `1 + ${k} % ${accounts}`;
  const payee = `1 + (${k} * 7919) % ${accounts}`;
  const created = `timestamptz '2024-01-01' + (${k} * 31536000.0 / ${n}) * interval '1 second'`;
  const memo = b
    ? `CASE WHEN ${k} % 5 = 0 THEN ' invoice ' || ${k} || ' ' || repeat(md5(${k}::text), 6) || ' ' WHEN ${k} % 3 = 0 THEN 'rent' END`
    : `CASE WHEN ${k} % 40 = 0 THEN ' invoice ' || ${k} || ' ' WHEN ${k} % 3 = 0 THEN 'rent ' || (${k} % 12 + 1) END`;
  const setup = [
    `DROP TABLE IF EXISTS hae_transfers, hae_accounts, hae_daily CASCADE`,
    `CREATE TABLE hae_accounts (id int PRIMARY KEY, holder text NOT NULL, closed boolean NOT NULL)`,
    `INSERT INTO hae_accounts SELECT g, 'holder ' || g, g % 997 = 0 FROM generate_series(1, ${accounts}) g`,
    `CREATE TABLE hae_transfers (id bigint PRIMARY KEY, payer_id int NOT NULL, payee_id int, amount numeric(12,2) NOT NULL, currency char(3),
       status text NOT NULL, reference varchar(40) NOT NULL, memo text, created_at timestamptz NOT NULL)${b ? ' WITH (fillfactor = 80)' : ''}`,
    `INSERT INTO hae_transfers
     SELECT ${k}, ${payer}, ${payee}, round((((${k} * 7907) % 500000) + 1) / 100.0, 2), (ARRAY['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'SEK'])[1 + (${k} * 11) % 6],
            (ARRAY['settled', 'settled', 'settled', 'pending', 'failed', 'settled', 'reversed', 'settled'])[1 + (${k} * 5) % 8],
            'TR-' || lpad(${k}::text, 10, '0') || '-' || substr(md5(${k}::text), 1, 8), ${memo}, ${created}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hae_transfers_payer_time ON hae_transfers (payer_id, created_at)`,
    `CREATE INDEX hae_transfers_payee ON hae_transfers (payee_id)`,
    `CREATE INDEX hae_transfers_pending ON hae_transfers (created_at) WHERE status = 'pending'`,
    `CREATE UNIQUE INDEX hae_transfers_reference ON hae_transfers (reference)`,
    `CREATE TABLE hae_daily (day date NOT NULL, currency char(3) NOT NULL, transfers bigint NOT NULL, total numeric NOT NULL)`,
    `VACUUM ANALYZE hae_accounts, hae_transfers`,
  ];
  const statements = [
    `ALTER TABLE hae_transfers ADD CONSTRAINT hae_amount_positive CHECK (amount > 0)`,
    `SETUP ALTER TABLE hae_transfers ADD CONSTRAINT hae_transfers_payer_fk FOREIGN KEY (payer_id) REFERENCES hae_accounts (id) NOT VALID`,
    `SETUP ALTER TABLE hae_transfers ADD CONSTRAINT hae_transfers_payee_fk FOREIGN KEY (payee_id) REFERENCES hae_accounts (id) ON DELETE SET NULL NOT VALID`,
    `ALTER TABLE hae_transfers VALIDATE CONSTRAINT hae_transfers_payer_fk`,
    `ALTER TABLE hae_transfers VALIDATE CONSTRAINT hae_transfers_payee_fk`,
    `UPDATE hae_transfers SET status = 'settled' WHERE status = 'pending' AND created_at < timestamptz '2024-04-01'`,
    `UPDATE hae_transfers SET memo = btrim(memo) WHERE memo <> btrim(memo)`,
    `DELETE FROM hae_transfers WHERE status = 'failed' AND currency = 'JPY'`,
    // The closed accounts pay nothing after this one (their paid transfers would block it): only their received ones are nulled.
    `SETUP UPDATE hae_transfers SET payer_id = 1 WHERE payer_id IN (SELECT id FROM hae_accounts WHERE closed)`,
    `SETUP VACUUM ANALYZE hae_transfers`,
    `DELETE FROM hae_accounts WHERE closed`,
    `INSERT INTO hae_daily SELECT created_at::date, currency, count(*), sum(amount) FROM hae_transfers WHERE status = 'settled' GROUP BY 1, 2`,
    `CREATE INDEX hae_c1 ON hae_transfers (amount)`,
    `DROP INDEX hae_c1`,
    `CREATE INDEX hae_c2 ON hae_transfers (currency, created_at)`,
    `DROP INDEX hae_c2`,
    `CREATE INDEX hae_c3 ON hae_transfers (upper(memo))`,
    `DROP INDEX hae_c3`,
    `CREATE INDEX CONCURRENTLY hae_c4 ON hae_transfers (status)`,
    `DROP INDEX hae_c4`,
    `ALTER TABLE hae_transfers ALTER COLUMN amount TYPE numeric(16,2)`,
    `ALTER TABLE hae_transfers ALTER COLUMN currency SET NOT NULL`,
    `ALTER TABLE hae_transfers ADD COLUMN disputed_at timestamptz`,
    `ALTER TABLE hae_transfers ALTER COLUMN status SET DEFAULT 'pending'`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO hae_daily ') ? 'hae_daily' : sql.includes('hae_accounts WHERE closed') ? 'hae_accounts' : 'hae_transfers'),
  };
}
