/**
 * Held-out set F for `bench/lock-timing.ts` (issue #32, fifth round), written and committed before
 * that round's model changes. Shapes no earlier set or calibration table has:
 * - a ledger partitioned by month (four partitions): DML routed to partitions, an index built on
 *   the partitioned parent, a CHECK validated across the partitions;
 * - documents with a two-column primary key, a jsonb payload large enough to be TOASTed in variant
 *   B, a trigram GIN index, a hash index on a uuid, an AFTER UPDATE row trigger that writes an
 *   audit row (real work per row, not a no-op), and a statement-level trigger;
 * - statements: a DELETE ... USING join, an unanchored LIKE, a semi-join over a skewed plan
 *   column, an expression index on a jsonb field, an index built CONCURRENTLY on one partition, a
 *   NOT VALID foreign key then validated, a volatile default that rewrites the table (and its
 *   TOAST), an INSERT ... SELECT routed across partitions, a cascading delete of accounts.
 * Variant A: 400k documents with 600-byte inline payloads, 2M ledger rows spread evenly over the
 * months. Variant B: fewer documents (150k at the default size) with 3-4 kB payloads of random
 * text (stored out of line), the ledger skewed (70 % in the newest month) and its memos longer.
 */
export interface LockTimingSet {
  /** Statements that build the tables (not timed). */
  setup: string[];
  /** Statements timed in order; `SETUP ` and `DROP ` lines only run. */
  statements: string[];
  /** The table each timed statement changes (VACUUM ANALYZEd before it). */
  tableOf: (sql: string) => string;
}

const MONTHS = ['2024_01', '2024_02', '2024_03', '2024_04'];

export function setF(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const accounts = 20_000;
  // n counts documents; the ledger has five rows per document.
  const ledger = n * 5;
  const payload = b
    ? // About 3.5 kB of hex that does not compress below the TOAST threshold.
      `(SELECT string_agg(md5((g * 7 + k)::text), ' ') FROM generate_series(1, 100) k)`
    : `repeat('ab', 300)`;
  // Day of 2024-01 .. 2024-04 (121 days): even in A; in B 70 % fall in April.
  const day = b ? `CASE WHEN g % 10 < 7 THEN 91 + (g * 13) % 30 ELSE (g * 13) % 91 END` : `(g * 13) % 121`;
  const setup = [
    `DROP TABLE IF EXISTS hf_audit, hf_docs, hf_ledger, hf_accounts CASCADE`,
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE TABLE hf_accounts (id bigint PRIMARY KEY, plan text NOT NULL, closed boolean NOT NULL DEFAULT false)`,
    // Plans skewed: most accounts are free; 2 % closed.
    `INSERT INTO hf_accounts SELECT g, CASE WHEN g % 10 < 6 THEN 'free' WHEN g % 10 < 9 THEN 'team' ELSE 'enterprise' END, g % 50 = 0 FROM generate_series(1, ${accounts}) g`,
    `CREATE TABLE hf_docs (account_id bigint NOT NULL, doc_id bigint NOT NULL, ref uuid NOT NULL, title text NOT NULL, status text NOT NULL,
       updated_on date NOT NULL, payload jsonb NOT NULL, PRIMARY KEY (account_id, doc_id))`,
    `INSERT INTO hf_docs SELECT 1 + (g * 7) % ${accounts}, g, md5(g::text)::uuid,
       (ARRAY['Quarterly report','Invoice','Contract draft','Meeting notes','Roadmap'])[1 + g % 5] || ' ' || (g * 31) % 9973,
       (ARRAY['draft','review','final','final','final'])[1 + (g * 3) % 5], date '2023-01-01' + (g % 700)::int,
       jsonb_build_object('kind', (ARRAY['pdf','doc','sheet'])[1 + g % 3], 'body', ${payload}, 'v', 1)
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hf_docs_status ON hf_docs (status)`,
    `CREATE INDEX hf_docs_ref ON hf_docs USING hash (ref)`,
    `CREATE INDEX hf_docs_title_trgm ON hf_docs USING gin (title gin_trgm_ops)`,
    `CREATE TABLE hf_audit (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, doc_id bigint NOT NULL, at timestamptz NOT NULL DEFAULT now(), what text)`,
    `CREATE OR REPLACE FUNCTION hf_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN INSERT INTO hf_audit (doc_id, what) VALUES (NEW.doc_id, TG_OP); RETURN NULL; END$$`,
    `CREATE TRIGGER hf_docs_audit AFTER UPDATE ON hf_docs FOR EACH ROW EXECUTE FUNCTION hf_audit_row()`,
    `CREATE OR REPLACE FUNCTION hf_noop_stmt() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$`,
    `CREATE TRIGGER hf_docs_stmt AFTER INSERT OR UPDATE OR DELETE ON hf_docs FOR EACH STATEMENT EXECUTE FUNCTION hf_noop_stmt()`,
    `CREATE TABLE hf_ledger (id bigint NOT NULL, account_id bigint NOT NULL, booked_on date NOT NULL, amount_cents bigint NOT NULL, memo text,
       PRIMARY KEY (id, booked_on)) PARTITION BY RANGE (booked_on)`,
    ...MONTHS.map((m, i) => {
      const from = `2024-${String(i + 1).padStart(2, '0')}-01`;
      const to = i === 3 ? '2024-05-01' : `2024-${String(i + 2).padStart(2, '0')}-01`;
      return `CREATE TABLE hf_ledger_${m} PARTITION OF hf_ledger FOR VALUES FROM ('${from}') TO ('${to}')`;
    }),
    `INSERT INTO hf_ledger SELECT g, 1 + (g * 17) % ${accounts}, date '2024-01-01' + (${day})::int, ((g * 104729) % 2000000) - 300000,
       CASE WHEN g % 23 = 0 THEN 'refund of order ' || g WHEN g % 4 = 0 THEN NULL ELSE 'payment ' || ${b ? `md5(g::text) || ' ' || md5((g + 1)::text)` : 'g'} END
     FROM generate_series(1::bigint, ${ledger}) g`,
    `CREATE INDEX hf_ledger_account ON hf_ledger (account_id)`,
    `VACUUM ANALYZE hf_accounts, hf_docs, hf_ledger, hf_audit`,
  ];
  const statements = [
    // Not HOT (status is indexed); every changed row fires the audit trigger's INSERT.
    `UPDATE hf_docs SET status = 'archived' WHERE updated_on < date '2023-03-01'`,
    // Rewrites the payload of a row in 17 (out of line in B: new TOAST chunks per row).
    `UPDATE hf_docs SET payload = payload || '{"v": 2}' WHERE doc_id % 17 = 0`,
    // Semi-join over the skewed plan column; title is in the trigram index.
    `UPDATE hf_docs SET title = title || ' (copy)' WHERE account_id IN (SELECT id FROM hf_accounts WHERE plan = 'enterprise')`,
    `DELETE FROM hf_docs d USING hf_accounts a WHERE a.id = d.account_id AND a.closed`,
    // Routed to the partitions of March and April.
    `UPDATE hf_ledger SET amount_cents = amount_cents + 1 WHERE booked_on >= date '2024-03-01' AND account_id % 5 = 0`,
    `DELETE FROM hf_ledger WHERE memo LIKE '%refund%'`,
    `CREATE INDEX hf_f1 ON hf_ledger (account_id, booked_on)`,
    `DROP INDEX hf_f1`,
    // Reads each payload (detoasted in B) for one field.
    `CREATE INDEX hf_f2 ON hf_docs ((payload ->> 'kind'))`,
    `DROP INDEX hf_f2`,
    `CREATE INDEX hf_f3 ON hf_docs USING gin (title gin_trgm_ops, status gin_trgm_ops)`,
    `DROP INDEX hf_f3`,
    `CREATE INDEX CONCURRENTLY hf_f4 ON hf_ledger_2024_04 (memo)`,
    `DROP INDEX hf_f4`,
    `ALTER TABLE hf_ledger ADD CONSTRAINT hf_ledger_sane CHECK (amount_cents > -100000000)`,
    `SETUP ALTER TABLE hf_docs ADD CONSTRAINT hf_docs_account FOREIGN KEY (account_id) REFERENCES hf_accounts (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE hf_docs VALIDATE CONSTRAINT hf_docs_account`,
    // Routed to all four partitions; each row enters the primary key and the account index.
    `INSERT INTO hf_ledger SELECT id + ${ledger * 2}, account_id, booked_on, -amount_cents, 'reversal' FROM hf_ledger WHERE id % 9 = 4`,
    // Cascades into hf_docs (one account in a hundred, about 1 % of the documents).
    `DELETE FROM hf_accounts WHERE id % 100 = 37`,
    // A volatile default: the table and its TOAST are rewritten, the indexes rebuilt.
    `ALTER TABLE hf_docs ADD COLUMN ext_id uuid NOT NULL DEFAULT gen_random_uuid()`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      /hf_ledger_2024_04/.test(sql)
        ? 'hf_ledger_2024_04'
        : /hf_ledger/.test(sql)
          ? 'hf_ledger'
          : /^DELETE FROM hf_accounts/.test(sql)
            ? 'hf_accounts'
            : 'hf_docs',
  };
}
