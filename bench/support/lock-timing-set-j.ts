import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set J for `bench/lock-timing.ts` (issue #32, sixth round), written and committed before
 * any change of that round. Shapes no earlier set or calibration table has:
 * - invoices keyed by a uuid (random heap order of the key), a `char(3)` currency, a date, a text
 *   column holding JSON, a jsonb document, accounts referenced with ON DELETE CASCADE, and a
 *   materialized view aggregating the invoices per account and month;
 * - statements: an UPDATE on two correlated predicates, a batched DELETE through a CTE with
 *   ORDER BY ... LIMIT, a jsonb_set over a seventh of the rows, a range UPDATE computing numeric,
 *   an INSERT ... SELECT from a join with generate_series under ON CONFLICT DO NOTHING, a
 *   cascading DELETE of accounts, a REFRESH of the materialized view (its query reads the large
 *   table, the view itself is small), an index on a low-cardinality text, a partial two-column
 *   index with DESC, a GIN index with jsonb_path_ops, a CHECK with an IN list, char(3) to text,
 *   text to jsonb USING a cast, date to timestamptz, and VACUUM FULL.
 * Variant A: 1M invoices over 50k accounts, dates following the heap order, 70 % paid, small
 * documents. Variant B: 400k invoices, 80 % of them in 5 % of the accounts, dates in random heap
 * order, statuses even, documents of about 1 kB, half the JSON texts NULL.
 */
export function setJ(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const accounts = 50_000;
  const account = b ? `CASE WHEN g % 5 <> 0 THEN 1 + (g * 7) % 2500 ELSE 1 + (g * 7) % ${accounts} END` : `1 + (g * 7) % ${accounts}`;
  const status = b
    ? `(ARRAY['paid','open','draft','void'])[1 + (g * 31) % 4]`
    : `CASE WHEN g % 50 = 0 THEN 'void' WHEN g % 12 = 1 THEN 'draft' WHEN g % 5 = 2 THEN 'open' ELSE 'paid' END`;
  const issued = b ? `date '2022-01-01' + ((g * 7919) % 1095)::int` : `date '2022-01-01' + (g * 1095 / ${n})::int`;
  const meta = b
    ? `jsonb_build_object('src', 'import', 'lines', (SELECT jsonb_agg(jsonb_build_object('sku', 'S' || ((g + k) % 997), 'q', k)) FROM generate_series(1, 30) k))`
    : `jsonb_build_object('src', 'api', 'n', g % 100)`;
  const legacy = b ? `CASE WHEN g % 2 = 0 THEN NULL ELSE '{"old": "' || md5(g::text) || '"}' END` : `'{"old": ' || g || '}'`;
  const setup = [
    `DROP MATERIALIZED VIEW IF EXISTS hj_monthly`,
    `DROP TABLE IF EXISTS hj_invoices, hj_accounts CASCADE`,
    `CREATE TABLE hj_accounts (id int PRIMARY KEY, plan text NOT NULL, country char(2) NOT NULL, created date NOT NULL)`,
    `INSERT INTO hj_accounts SELECT g, (ARRAY['free','team','business'])[1 + g % 3], (ARRAY['DE','FR','US','GB','NL'])[1 + g % 5], date '2020-01-01' + g % 900 FROM generate_series(1, ${accounts}) g`,
    `CREATE TABLE hj_invoices (id uuid PRIMARY KEY, account_id int NOT NULL REFERENCES hj_accounts (id) ON DELETE CASCADE, status text NOT NULL,
       currency char(3) NOT NULL, amount numeric(12, 2) NOT NULL, issued_on date NOT NULL, legacy_ref text, meta jsonb NOT NULL)`,
    `INSERT INTO hj_invoices SELECT md5(g::text)::uuid, ${account}, ${status}, (ARRAY['EUR','USD','GBP'])[1 + g % 3], ((g * 7919) % 500000) / 100.0,
       ${issued}, ${legacy}, ${meta}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hj_invoices_account ON hj_invoices (account_id)`,
    `CREATE INDEX hj_invoices_issued ON hj_invoices (issued_on)`,
    `CREATE MATERIALIZED VIEW hj_monthly AS SELECT account_id, date_trunc('month', issued_on) AS month, count(*) AS invoices, sum(amount) AS total
       FROM hj_invoices GROUP BY 1, 2`,
    `VACUUM ANALYZE hj_accounts, hj_invoices, hj_monthly`,
  ];
  const statements = [
    `UPDATE hj_invoices SET status = 'void' WHERE status = 'draft' AND issued_on < date '2022-07-01'`,
    `WITH batch AS (SELECT id FROM hj_invoices WHERE status = 'paid' ORDER BY issued_on LIMIT 20000) DELETE FROM hj_invoices WHERE id IN (SELECT id FROM batch)`,
    `UPDATE hj_invoices SET meta = jsonb_set(meta, '{reviewed}', 'true') WHERE account_id % 7 = 0`,
    `UPDATE hj_invoices SET amount = round(amount * 1.2, 2) WHERE issued_on >= date '2024-06-01'`,
    `INSERT INTO hj_invoices (id, account_id, status, currency, amount, issued_on, meta)
     SELECT md5('x' || a.id || '-' || k)::uuid, a.id, 'draft', 'EUR', 10 * k, date '2025-01-01', '{}' FROM hj_accounts a, generate_series(1, 3) k
     ON CONFLICT (id) DO NOTHING`,
    `DELETE FROM hj_accounts WHERE id % 500 = 1`,
    `REFRESH MATERIALIZED VIEW hj_monthly`,
    `DROP MATERIALIZED VIEW hj_monthly`,
    `CREATE INDEX hj_j1 ON hj_invoices (status)`,
    `DROP INDEX hj_j1`,
    `CREATE INDEX hj_j2 ON hj_invoices (account_id, issued_on DESC) WHERE status <> 'void'`,
    `DROP INDEX hj_j2`,
    `CREATE INDEX hj_j3 ON hj_invoices USING gin (meta jsonb_path_ops)`,
    `DROP INDEX hj_j3`,
    `ALTER TABLE hj_invoices ADD CONSTRAINT hj_amount_ok CHECK (amount >= 0 AND currency IN ('EUR', 'USD', 'GBP'))`,
    `ALTER TABLE hj_invoices ALTER COLUMN currency TYPE text`,
    `ALTER TABLE hj_invoices ALTER COLUMN legacy_ref TYPE jsonb USING legacy_ref::jsonb`,
    `ALTER TABLE hj_invoices ALTER COLUMN issued_on TYPE timestamptz`,
    `VACUUM FULL hj_invoices`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/hj_accounts WHERE/.test(sql) ? 'hj_accounts' : /hj_monthly/.test(sql) ? 'hj_monthly' : 'hj_invoices'),
  };
}
