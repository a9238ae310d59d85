import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AM for `bench/lock-timing.ts` (issue #32), written and committed after AL ran and
 * before the change its run called for, to be run once after it. Shapes no earlier set or
 * calibration table has:
 * - a publishing platform's articles keyed by a bigint, an author (a few hundred articles an
 *   author, referenced by an int key that authors are renumbered by), a section in text of nine
 *   values, a slug unique per section, a word count, a publication time NULL for drafts, a body of
 *   a few hundred bytes (a few kilobytes on some rows in B), tags in text[] under GIN; comments
 *   referencing their article (ON DELETE CASCADE, ON UPDATE CASCADE), several an article; indexes
 *   on author and publication, the unique slug, a partial one on the drafts;
 * - statements: a CHECK on the word count, an UPDATE renumbering a range of authors (their
 *   articles' author key follows through ON UPDATE CASCADE), an UPDATE publishing old drafts (a
 *   partial index's column set), an UPDATE adding a tag to one section (GIN), a DELETE of old
 *   drafts cascading into their comments, a DELETE of comments by a spam pattern (an unanchored
 *   LIKE), an INSERT ... SELECT of per-author counts, a unique index on the slug alone built
 *   CONCURRENTLY, an index on the lower-cased section and time, GIN on the tags again, the word
 *   count widened to bigint (a rewrite with a GIN index, and a TOASTed body in B), and a column
 *   added with a default. Written knowing the next change is ON UPDATE CASCADE (AL's finding): one
 *   statement of thirteen renumbers authors through it.
 * Variant A: 600k articles in publication order, authors taking turns, 2.4M comments. Variant B:
 * 250k articles in no heap order, a fiftieth of the authors writing most, bodies of 3 kB on a
 * tenth of the rows (stored out of line), 1M comments, at fillfactor 90.
 */
export function setAM(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const authors = 3_000;
  const comments = n * 4;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const author = b ? `(CASE WHEN ${k} % 10 < 7 THEN 1 + (${k} * 13) % 60 ELSE 1 + (${k} * 31) % ${authors} END)` : `(1 + ${k} % ${authors})`;
  const section = `(ARRAY['news', 'sport', 'culture', 'business', 'science', 'travel', 'food', 'opinion', 'tech'])[1 + (${k} * 7) % 9]`;
  const published = `CASE WHEN ${k} % 11 = 0 THEN NULL ELSE timestamptz '2021-01-01' + (${k} * 94608000.0 / ${n}) * interval '1 second' END`;
  const body = b
    ? `CASE WHEN ${k} % 10 = 0 THEN (SELECT string_agg(md5((${k} * 31 + s)::text), ' ') FROM generate_series(1, 90) s) ELSE repeat('Lorem ipsum ', 30) END`
    : `repeat('Lorem ipsum ', 25)`;
  const tags = `ARRAY['t' || ${k} % 40, 's' || ${k} % 7]`;
  const setup = [
    `DROP TABLE IF EXISTS ham_comments, ham_articles, ham_authors, ham_author_counts CASCADE`,
    `CREATE TABLE ham_authors (id int PRIMARY KEY, name text NOT NULL)`,
    `INSERT INTO ham_authors SELECT g, 'author ' || g FROM generate_series(1, ${authors}) g`,
    `CREATE TABLE ham_articles (id bigint PRIMARY KEY, author_id int NOT NULL REFERENCES ham_authors (id) ON UPDATE CASCADE, section text NOT NULL,
       slug text NOT NULL, words int NOT NULL, published_at timestamptz, body text NOT NULL, tags text[] NOT NULL)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO ham_articles
     SELECT ${k}, ${author}, ${section}, 'story-' || ${k}, 200 + (${k} * 37) % 3000, ${published}, ${body}, ${tags}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX ham_articles_author_pub ON ham_articles (author_id, published_at)`,
    `CREATE UNIQUE INDEX ham_articles_slug ON ham_articles (section, slug)`,
    `CREATE INDEX ham_articles_drafts ON ham_articles (author_id) WHERE published_at IS NULL`,
    `CREATE INDEX ham_articles_tags ON ham_articles USING gin (tags)`,
    `CREATE TABLE ham_comments (id bigint PRIMARY KEY, article_id bigint NOT NULL REFERENCES ham_articles (id) ON DELETE CASCADE ON UPDATE CASCADE,
       body text NOT NULL, created_at timestamptz NOT NULL)`,
    `INSERT INTO ham_comments SELECT g, 1 + (g * 7907) % ${n}, CASE WHEN g % 50 = 0 THEN 'buy cheap pills now ' || g ELSE 'Nice piece, ' || g END,
       timestamptz '2021-01-01' + (g * 94608000.0 / ${comments}) * interval '1 second' FROM generate_series(1::bigint, ${comments}) g`,
    `CREATE INDEX ham_comments_article ON ham_comments (article_id)`,
    `CREATE TABLE ham_author_counts (author_id int PRIMARY KEY, articles bigint NOT NULL, words bigint NOT NULL)`,
    `VACUUM ANALYZE ham_authors, ham_articles, ham_comments`,
  ];
  const statements = [
    `ALTER TABLE ham_articles ADD CONSTRAINT ham_words_ok CHECK (words > 0)`,
    `UPDATE ham_authors SET id = id + 100000 WHERE id BETWEEN 1 AND 40`,
    `UPDATE ham_articles SET published_at = now() WHERE published_at IS NULL AND id % 7 = 0`,
    `UPDATE ham_articles SET tags = tags || 'archived'::text WHERE section = 'travel' AND published_at < timestamptz '2022-01-01'`,
    `DELETE FROM ham_articles WHERE published_at IS NULL AND id < ${Math.round(n * 0.3)}`,
    `DELETE FROM ham_comments WHERE body LIKE '%cheap pills%'`,
    `INSERT INTO ham_author_counts SELECT author_id, count(*), sum(words) FROM ham_articles GROUP BY author_id`,
    `CREATE UNIQUE INDEX CONCURRENTLY ham_c1 ON ham_articles (slug)`,
    `DROP INDEX ham_c1`,
    `CREATE INDEX ham_c2 ON ham_articles (lower(section), published_at)`,
    `DROP INDEX ham_c2`,
    `CREATE INDEX ham_c3 ON ham_articles USING gin (tags)`,
    `DROP INDEX ham_c3`,
    `ALTER TABLE ham_articles ALTER COLUMN words TYPE bigint`,
    `ALTER TABLE ham_articles ADD COLUMN featured boolean NOT NULL DEFAULT false`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      sql.startsWith('INSERT INTO ham_author_counts ')
        ? 'ham_author_counts'
        : sql.includes('ham_authors ')
          ? 'ham_authors'
          : sql.includes('FROM ham_comments')
            ? 'ham_comments'
            : 'ham_articles',
  };
}
