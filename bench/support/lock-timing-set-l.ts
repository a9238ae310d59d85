import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set L for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's last model change and run once on the model as the round leaves it. Shapes no
 * earlier set or calibration table has:
 * - documents with a bigserial key, a smallint kind, numeric(12, 2), a date, a title and a body,
 *   and their versions (about 1.5 a document) referencing them by an indexed key;
 * - statements: upper() over the bodies of an id range, an IN list on a smallint, an anti-join
 *   DELETE of documents without versions, a DELETE on a date and an expression, an INSERT ...
 *   SELECT filtered on a column with statistics, an expression index with text_pattern_ops, a
 *   DESC two-column index, hash and BRIN indexes, a unique index built CONCURRENTLY, a CHECK, a
 *   foreign key added NOT VALID then validated, smallint to int, numeric(12, 2) to numeric(14, 4),
 *   and SET NOT NULL.
 * Variant A: 900k documents with short bodies. Variant B: 300k documents with bodies of about
 * 1.3 kB of hex and long titles, kinds skewed (half are kind 1).
 */
export function setL(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const versions = Math.round(n * 1.5);
  const kind = b ? `CASE WHEN g % 2 = 0 THEN 1 ELSE (g * 7) % 12 END` : `(g * 7) % 12`;
  const body = b ? `(SELECT string_agg(md5((g * 11 + k)::text), '') FROM generate_series(1, 40) k)` : `'body of ' || g || ' ' || md5(g::text)`;
  const title = b ? `'Title ' || md5((g * 3)::text) || ' ' || md5(g::text)` : `'Doc ' || (g * 7919) % ${n}`;
  const setup = [
    `DROP TABLE IF EXISTS hl_versions, hl_docs CASCADE`,
    `CREATE TABLE hl_docs (id bigserial PRIMARY KEY, kind smallint NOT NULL, version int NOT NULL, price numeric(12, 2) NOT NULL, updated_on date NOT NULL, title text, body text NOT NULL)`,
    `INSERT INTO hl_docs (kind, version, price, updated_on, title, body)
     SELECT ${kind}, 1 + g % 5, ((g * 104729) % 1000000) / 100.0, date '2021-01-01' + ((g * 13) % 1400)::int, ${title}, ${body}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE TABLE hl_versions (id bigserial PRIMARY KEY, doc_id bigint NOT NULL, created_on date NOT NULL, note text)`,
    // About 1.5 versions per document; one document in ten has none.
    `INSERT INTO hl_versions (doc_id, created_on, note)
     SELECT d, date '2021-01-01' + ((g * 17) % 1400)::int, 'v' || g
       FROM (SELECT g, 1 + (g * 7) % ${n} AS d FROM generate_series(1::bigint, ${versions}) g) s WHERE d % 10 <> 3`,
    `CREATE INDEX hl_versions_doc ON hl_versions (doc_id)`,
    `CREATE INDEX hl_docs_kind ON hl_docs (kind)`,
    `VACUUM ANALYZE hl_docs, hl_versions`,
  ];
  const statements = [
    `UPDATE hl_docs SET body = upper(body) WHERE id BETWEEN 1 AND ${Math.round(n / 20)}`,
    `UPDATE hl_docs SET version = version + 1, updated_on = updated_on + 1 WHERE kind IN (3, 5, 7)`,
    `DELETE FROM hl_docs WHERE NOT EXISTS (SELECT 1 FROM hl_versions v WHERE v.doc_id = hl_docs.id)`,
    `DELETE FROM hl_versions WHERE created_on < date '2021-04-01' AND doc_id % 3 = 0`,
    `INSERT INTO hl_versions (doc_id, created_on, note) SELECT id, updated_on, left(body, 40) FROM hl_docs WHERE kind = 2`,
    `CREATE INDEX hl_l1 ON hl_docs (lower(title) text_pattern_ops)`,
    `DROP INDEX hl_l1`,
    `CREATE INDEX hl_l2 ON hl_docs (updated_on DESC, id)`,
    `DROP INDEX hl_l2`,
    `CREATE INDEX hl_l3 ON hl_docs USING hash (title)`,
    `DROP INDEX hl_l3`,
    `CREATE INDEX hl_l4 ON hl_docs USING brin (id)`,
    `DROP INDEX hl_l4`,
    `CREATE UNIQUE INDEX CONCURRENTLY hl_l5 ON hl_docs (title, id)`,
    `DROP INDEX hl_l5`,
    `ALTER TABLE hl_docs ADD CONSTRAINT hl_kind_ok CHECK (kind BETWEEN 0 AND 20)`,
    `SETUP DELETE FROM hl_versions v WHERE NOT EXISTS (SELECT 1 FROM hl_docs d WHERE d.id = v.doc_id)`,
    `ALTER TABLE hl_versions ADD CONSTRAINT hl_versions_doc_fk FOREIGN KEY (doc_id) REFERENCES hl_docs (id) NOT VALID`,
    `ALTER TABLE hl_versions VALIDATE CONSTRAINT hl_versions_doc_fk`,
    `ALTER TABLE hl_docs ALTER COLUMN kind TYPE int`,
    `ALTER TABLE hl_docs ALTER COLUMN price TYPE numeric(14, 4)`,
    `ALTER TABLE hl_docs ALTER COLUMN title SET NOT NULL`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^(DELETE FROM|INSERT INTO|ALTER TABLE) hl_versions/.test(sql) ? 'hl_versions' : 'hl_docs'),
  };
}
