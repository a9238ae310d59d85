import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set Y for `bench/lock-timing.ts` (issue #32, thirteenth round), written and committed
 * after the round's last model change (CREATE INDEX CONCURRENTLY from the sample sort), to be run
 * once on it. Set W ran on the round's model before that change (none of its statements is a
 * concurrent build), set X before it too. Shapes no earlier set or calibration table has:
 * - comments of a forum: a bigint key, a post they reference (a parent of 100k rows), an author
 *   uuid, a body in text, a score, a created time, an edited flag, flags as a bitmask in int, a
 *   language in char(2), a stored `tsvector` of the body; three indexes besides the key (the post,
 *   the author and time together, a partial one on the flagged rows: `flags & 1 = 1`);
 * - an archive without indexes;
 * - statements: a CHECK on the score, a foreign key validated, an UPDATE of the score of every
 *   fiftieth post (an expression), an UPDATE marking the newest rows edited and lengthening their
 *   bodies, an UPDATE setting a flag bit for one language (the partial index's predicate column),
 *   a DELETE on a bit of the mask, a DELETE of one author's rows, an INSERT ... SELECT of the
 *   oldest rows into the archive, a GIN index on the tsvector (no earlier set has one), an index
 *   on the language and the score descending, an index on the time built CONCURRENTLY, the
 *   score's type changed to bigint (a rewrite rebuilding four indexes), SET
 *   NOT NULL on the language and an int[] column added (the catalog only).
 * Variant A: 800k comments in time order, short bodies. Variant B: 250k comments in no order, a
 * few posts holding most, bodies of about 900 bytes, at fillfactor 90.
 */
export function setY(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const posts = 100_000;
  const post = b ? `1 + ((g % 211) * (g % 211) * 3 + g % 5) % ${posts}` : `1 + (g * 7919) % ${posts}`;
  const created = b
    ? `timestamptz '2021-01-01' + ((g * 104729) % 1000000) * interval '1 minute'`
    : `timestamptz '2021-01-01' + (g * 1000000.0 / ${n}) * interval '1 minute'`;
  const body = b
    ? `'I think ' || (ARRAY['this','that','the other','nothing'])[1 + g % 4] || ' is right, because ' || repeat('the argument goes on and on ', (28 + g % 8)::int)`
    : `'Comment number ' || g || ' about ' || (ARRAY['cats','dogs','cars','rain','code'])[1 + g % 5]`;
  const setup = [
    `DROP TABLE IF EXISTS hy_comments, hy_posts, hy_archive CASCADE`,
    `CREATE TABLE hy_posts (id int PRIMARY KEY, title text NOT NULL)`,
    `INSERT INTO hy_posts SELECT g, 'Post ' || g FROM generate_series(1, ${posts}) g`,
    `CREATE TABLE hy_comments (id bigint PRIMARY KEY, post_id int NOT NULL, author uuid NOT NULL, body text NOT NULL, score int NOT NULL,
       created_at timestamptz NOT NULL, edited boolean NOT NULL, flags int NOT NULL, lang char(2),
       search tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO hy_comments (id, post_id, author, body, score, created_at, edited, flags, lang)
     SELECT g, ${post}, md5('author' || (g % 20000))::uuid, ${body}, (g * 31) % 500, ${created}, false,
            (CASE WHEN g % 40 = 0 THEN 1 ELSE 0 END) | (CASE WHEN g % 9 = 0 THEN 4 ELSE 0 END), (ARRAY['en','en','de','fr','es'])[1 + g % 5]
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hy_comments_post ON hy_comments (post_id)`,
    `CREATE INDEX hy_comments_author_at ON hy_comments (author, created_at)`,
    `CREATE INDEX hy_comments_flagged ON hy_comments (created_at) WHERE flags & 1 = 1`,
    `CREATE TABLE hy_archive (id bigint NOT NULL, post_id int NOT NULL, body text NOT NULL, created_at timestamptz NOT NULL)`,
    `VACUUM ANALYZE hy_posts, hy_comments`,
  ];
  const statements = [
    `ALTER TABLE hy_comments ADD CONSTRAINT hy_score_sane CHECK (score BETWEEN -1000 AND 100000)`,
    `SETUP ALTER TABLE hy_comments ADD CONSTRAINT hy_comments_post_fk FOREIGN KEY (post_id) REFERENCES hy_posts (id) NOT VALID`,
    `ALTER TABLE hy_comments VALIDATE CONSTRAINT hy_comments_post_fk`,
    `UPDATE hy_comments SET score = score + 1 WHERE post_id % 50 = 0`,
    `UPDATE hy_comments SET edited = true, body = body || ' (edited)' WHERE created_at > timestamptz '2022-10-01'`,
    `UPDATE hy_comments SET flags = flags | 1 WHERE lang = 'de'`,
    `DELETE FROM hy_comments WHERE flags & 4 = 4`,
    `DELETE FROM hy_comments WHERE author = md5('author77')::uuid`,
    `INSERT INTO hy_archive SELECT id, post_id, body, created_at FROM hy_comments WHERE created_at < timestamptz '2021-03-01'`,
    `CREATE INDEX hy_y1 ON hy_comments USING gin (search)`,
    `DROP INDEX hy_y1`,
    `CREATE INDEX hy_y2 ON hy_comments (lang, score DESC)`,
    `DROP INDEX hy_y2`,
    `CREATE INDEX CONCURRENTLY hy_y3 ON hy_comments (created_at)`,
    `DROP INDEX hy_y3`,
    `ALTER TABLE hy_comments ALTER COLUMN score TYPE bigint`,
    `ALTER TABLE hy_comments ALTER COLUMN lang SET NOT NULL`,
    `ALTER TABLE hy_comments ADD COLUMN reactions int[]`,
  ];
  return { setup, statements, tableOf: (sql) => (sql.startsWith('INSERT INTO hy_archive') ? 'hy_archive' : 'hy_comments') };
}
