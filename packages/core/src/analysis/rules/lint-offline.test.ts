import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../snapshot-builder';
import { lintFindings } from './lint-statements';
import { ensureParser, lintOffline, OFFLINE_RULES } from './lint-offline';

const long = (c: string, n: number): string => c.repeat(n);

// A migration of many statement kinds, most of them unsafe, with identifiers at and around the
// 63-byte limit (quoted, with doubled quotes, non-ASCII, inside comments, strings and bodies).
const SQL = `
-- a comment naming ${long('c', 70)}
CREATE TABLE accounts (id serial PRIMARY KEY, code char(4), n integer, s smallint, at timestamp, label varchar(40));
CREATE INDEX accounts_code ON accounts (code);
ALTER TABLE accounts ADD COLUMN owner_id bigint REFERENCES owners (id);
ALTER TABLE orders ADD COLUMN total numeric NOT NULL DEFAULT 0, ADD COLUMN u uuid DEFAULT gen_random_uuid();
ALTER TABLE orders ADD COLUMN width integer NOT NULL DEFAULT -1;
ALTER TABLE orders ADD CONSTRAINT orders_owner_fk FOREIGN KEY (owner_id) REFERENCES owners (id);
ALTER TABLE orders ADD CONSTRAINT orders_total_check CHECK (total > 0);
ALTER TABLE orders ADD PRIMARY KEY (id), ADD UNIQUE (code);
ALTER TABLE orders ALTER COLUMN total TYPE numeric(8,2), ALTER COLUMN status DROP NOT NULL, ALTER COLUMN code SET NOT NULL;
ALTER TABLE orders DROP COLUMN legacy;
ALTER TABLE orders RENAME COLUMN a TO b;
ALTER TABLE orders RENAME TO purchases;
CREATE UNIQUE INDEX CONCURRENTLY orders_code_u ON purchases (code);
DROP INDEX purchases_code_idx;
REINDEX TABLE purchases;
ALTER TABLE events DETACH PARTITION events_2024;
DROP TABLE old_things;
TRUNCATE order_items CASCADE;
-- dbops:batched key=id size=0
UPDATE purchases SET total = 0;
DELETE FROM owners;
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
CREATE DOMAIN positive_int AS integer CHECK (VALUE > 0);
ALTER DOMAIN positive_int ADD CONSTRAINT p CHECK (VALUE < 100);
CREATE TABLE ${long('a', 64)} (id bigint);
CREATE TABLE ${long('b', 63)} (id bigint);
CREATE TABLE "${long('q ', 32)}" (id bigint);
CREATE TABLE "${long('d', 30)}""${long('d', 33)}" (id bigint);
CREATE TABLE "${long('e', 30)}""${long('e', 32)}" (id bigint);
CREATE TABLE "${long('é', 32)}" (id bigint);
CREATE TABLE ${long('ü', 32)} (id bigint);
CREATE TABLE ${long('ö', 31)} (id bigint);
INSERT INTO purchases (note) VALUES ('${long('x', 80)}');
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT ${long('y', 70)} FROM t $$;
BEGIN;
CREATE INDEX purchases_total ON purchases (total);
COMMIT;
CREATE TABLE child (id bigint, parent_id bigint REFERENCES accounts (id));
CREATE TABLE created_as AS SELECT * FROM purchases;
CREATE INDEX created_as_idx ON created_as (id);
VACUUM FULL purchases;
CREATE TABLE dup (n integer, n integer);
`;

const emptySnapshot = buildSnapshot([]);

describe('lintOffline', () => {
  // lintOffline runs the rules without the rest of analyzeStatements (lock times, blast radius,
  // rollback): its findings must be those of the whole analysis with the same rules.
  for (const assumeInTransaction of [false, true])
    it(`finds what the whole analysis finds with the offline rules (assumeInTransaction ${assumeInTransaction})`, async () => {
      await ensureParser();
      const offline = lintOffline(SQL, { assumeInTransaction }).findings;
      const whole = await lintFindings(SQL, emptySnapshot, { rules: OFFLINE_RULES, assumeExisting: true, assumeInTransaction });
      expect(offline).toEqual(whole);
      // Not vacuous: the migration above makes many rules speak.
      expect(new Set(offline.map((f) => f.rule)).size).toBeGreaterThan(25);
      expect(offline.filter((f) => f.rule === 'identifier-too-long').length).toBe(5);
      // A finding the rules raise twice on one statement (two columns n) is reported once.
      const last = Math.max(...offline.map((f) => f.statement_index));
      expect(offline.filter((f) => f.statement_index === last && f.rule === 'prefer-bigint-over-int').length).toBe(1);
    });
});

describe('lintOffline with excluded rules', () => {
  it('leaves out the rules excluded now, also when the same set is reused after a change', async () => {
    await ensureParser();
    const sql = 'CREATE INDEX t_a ON t (a);\n';
    const rules = (excluded: ReadonlySet<string>): string[] => [...new Set(lintOffline(sql, { excludedRules: excluded }).findings.map((f) => f.rule))];
    const excluded = new Set(['require-lock-timeout']);
    expect(rules(excluded)).toEqual(['require-statement-timeout', 'require-concurrent-index-creation']);
    excluded.delete('require-lock-timeout');
    excluded.add('require-statement-timeout');
    expect(rules(excluded)).toEqual(['require-lock-timeout', 'require-concurrent-index-creation']);
    expect(rules(new Set())).toEqual(['require-lock-timeout', 'require-statement-timeout', 'require-concurrent-index-creation']);
  });
});
