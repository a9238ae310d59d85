import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set U for `bench/lock-timing.ts` (issue #32, eleventh round), written and committed
 * before the round's model change, to be run once on the model the round ends with. Shapes no
 * earlier set or calibration table has:
 * - library loans: a bigint key, an item code in varchar sharing long prefixes (`LIB-BR-000123`), a
 *   title in text, a member they reference (a parent of 30k rows), a loan date, a due date, a
 *   returned flag in boolean, a fine in numeric, an int[] of renewal days; three indexes besides
 *   the key (member, due date, a partial one on the loans not returned);
 * - statements: a CHECK on the fine, a foreign key validated, an UPDATE marking a date range of
 *   loans returned (through the due-date index), an UPDATE of the fines of the loans not returned
 *   (through the partial index), a DELETE of the returned loans of a year, a DELETE of one
 *   member's loans, an index on the code with `varchar_pattern_ops`, an index on the lower-cased
 *   title with `text_pattern_ops`, a GIN on the renewals, a BRIN on the loan date, SET NOT NULL on
 *   the title, the loan date's type changed to timestamptz (a rewrite rebuilding four indexes)
 *   and a column added with a default (the catalog only).
 * Variant A: 900k loans in date order, members taking turns, short titles. Variant B: 350k loans
 * in no order, a few members holding most of them, long titles and up to eight renewals.
 */
export function setU(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const members = 30_000;
  const member = b ? `1 + ((g % 173) * (g % 173) * 7 + g % 11) % ${members}` : `1 + g % ${members}`;
  const loaned = b ? `date '2022-01-01' + ((g * 7919) % 1460)::int` : `date '2022-01-01' + (g * 1460 / ${n})::int`;
  const title = b
    ? `'The ' || (ARRAY['Silent','Broken','Golden','Hidden','Last'])[1 + g % 5] || ' ' || (ARRAY['River','Garden','Empire','Letter','Harbour'])[1 + (g * 3) % 5] || ': a novel in ' || (g % 40) || ' parts, volume ' || (g % 9)`
    : `'Title ' || (g % 50000)`;
  const renewals = b ? `ARRAY(SELECT 7 * j FROM generate_series(1, (g % 9)::int) j)` : `ARRAY[7 * (g % 3)]`;
  const setup = [
    `DROP TABLE IF EXISTS hu_loans, hu_members CASCADE`,
    `CREATE TABLE hu_members (id int PRIMARY KEY, name text NOT NULL, branch text NOT NULL)`,
    `INSERT INTO hu_members SELECT g, 'Member ' || g, (ARRAY['north','south','east','west','central'])[1 + g % 5] FROM generate_series(1, ${members}) g`,
    `CREATE TABLE hu_loans (id bigint PRIMARY KEY, code varchar(32) NOT NULL, title text, member_id int NOT NULL, loaned_on date NOT NULL,
       due_on date NOT NULL, returned boolean NOT NULL, fine numeric(8, 2) NOT NULL, renewals int[] NOT NULL)`,
    `INSERT INTO hu_loans
     SELECT g, 'LIB-' || (ARRAY['BR','NO','SO','EA','CE'])[1 + g % 5] || '-' || lpad(((g * 104729) % 1000000)::text, 7, '0'), ${title}, ${member},
            ${loaned}, ${loaned} + 21, (g % 7) <> 0, ((g * 31) % 500) / 100.0, ${renewals}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hu_loans_member ON hu_loans (member_id)`,
    `CREATE INDEX hu_loans_due ON hu_loans (due_on)`,
    `CREATE INDEX hu_loans_open ON hu_loans (due_on) WHERE NOT returned`,
    `VACUUM ANALYZE hu_members, hu_loans`,
  ];
  const statements = [
    `ALTER TABLE hu_loans ADD CONSTRAINT hu_fine_sane CHECK (fine >= 0 AND fine < 1000)`,
    `SETUP ALTER TABLE hu_loans ADD CONSTRAINT hu_loans_member_fk FOREIGN KEY (member_id) REFERENCES hu_members (id) NOT VALID`,
    `ALTER TABLE hu_loans VALIDATE CONSTRAINT hu_loans_member_fk`,
    `UPDATE hu_loans SET returned = true WHERE due_on BETWEEN date '2022-03-01' AND date '2022-05-31'`,
    `UPDATE hu_loans SET fine = fine + 0.5 WHERE NOT returned AND due_on < date '2024-06-01'`,
    `DELETE FROM hu_loans WHERE returned AND loaned_on < date '2023-01-01' AND loaned_on >= date '2022-07-01'`,
    `DELETE FROM hu_loans WHERE member_id = 77`,
    `CREATE INDEX hu_u1 ON hu_loans (code varchar_pattern_ops)`,
    `DROP INDEX hu_u1`,
    `CREATE INDEX hu_u2 ON hu_loans (lower(title) text_pattern_ops)`,
    `DROP INDEX hu_u2`,
    `CREATE INDEX hu_u3 ON hu_loans USING gin (renewals)`,
    `DROP INDEX hu_u3`,
    `CREATE INDEX hu_u4 ON hu_loans USING brin (loaned_on)`,
    `DROP INDEX hu_u4`,
    `ALTER TABLE hu_loans ALTER COLUMN title SET NOT NULL`,
    `ALTER TABLE hu_loans ALTER COLUMN loaned_on TYPE timestamptz`,
    `ALTER TABLE hu_loans ADD COLUMN branch text DEFAULT 'main'`,
  ];
  return { setup, statements, tableOf: () => 'hu_loans' };
}
