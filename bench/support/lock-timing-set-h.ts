import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set H for `bench/lock-timing.ts` (issue #32, fifth round), written and committed after
 * set G was run and before the changes G's figures led to; run only once those are final. Shapes
 * no earlier set or calibration table has:
 * - support tickets with 24 columns, most of them NULL, a tsvector kept by a BEFORE trigger that
 *   calls `to_tsvector` per row (real work in the trigger), a GIN index on it, an hstore of
 *   attributes, varchar columns under an ICU collation, and a bytea attachment;
 * - room bookings with an exclusion constraint added (a GiST build through btree_gist);
 * - a three-level cascade: customers, tickets, ticket comments;
 * - statements: an UPDATE whose SET is a correlated subquery, a DELETE ... RETURNING, a
 *   varchar widened (catalog only) and one narrowed (a scan and a rewrite), a stored generated
 *   column, a column with a constant default (catalog only), SET NOT NULL on a late column of a
 *   wide row, an index on an hstore key, an ICU varchar index, INSERT ... SELECT through the
 *   tsvector trigger, a customer delete cascading two levels down.
 * Variant A: 500k tickets with short bodies. Variant B: 200k tickets with 2-4 kB bodies of
 * words (compressible: stored compressed, partly inline), attachments on a third of them.
 */
export function setH(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const customers = 30_000;
  const words = `(ARRAY['printer','login','refund','invoice','delay','crash','upgrade','password','billing','network'])`;
  const body = b
    ? `(SELECT string_agg(${words}[1 + (g * j) % 10] || ' ' || (g * j) % 977, ' ') FROM generate_series(1, 250 + (g % 200)) j)`
    : `${words}[1 + g % 10] || ' issue ' || g || ' ' || ${words}[1 + (g * 7) % 10]`;
  const setup = [
    `DROP TABLE IF EXISTS hh_comments, hh_tickets, hh_customers, hh_bookings CASCADE`,
    `CREATE EXTENSION IF NOT EXISTS hstore`,
    `CREATE EXTENSION IF NOT EXISTS btree_gist`,
    `CREATE TABLE hh_customers (id int PRIMARY KEY, name varchar(120) COLLATE "und-x-icu" NOT NULL, tier int NOT NULL)`,
    `INSERT INTO hh_customers SELECT g, 'Customer ' || g, g % 4 FROM generate_series(1, ${customers}) g`,
    `CREATE TABLE hh_tickets (id bigint PRIMARY KEY, customer_id int NOT NULL REFERENCES hh_customers (id) ON DELETE CASCADE,
       subject varchar(200) COLLATE "und-x-icu" NOT NULL, body text, search tsvector, attrs hstore, attachment bytea,
       priority int NOT NULL, reopened int, score numeric(8, 3), c1 text, c2 text, c3 int, c4 int, c5 date, c6 date,
       c7 boolean, c8 boolean, c9 text, c10 text, assignee varchar(60), team varchar(40), comment_count int NOT NULL DEFAULT 0, closed_on date)`,
    `CREATE OR REPLACE FUNCTION hh_index() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.search := to_tsvector('english', coalesce(NEW.subject, '') || ' ' || coalesce(NEW.body, '')); RETURN NEW; END$$`,
    `CREATE TRIGGER hh_tickets_index BEFORE INSERT OR UPDATE OF subject, body ON hh_tickets FOR EACH ROW EXECUTE FUNCTION hh_index()`,
    `INSERT INTO hh_tickets (id, customer_id, subject, body, attrs, attachment, priority, reopened, score, c3, c5, assignee, team, closed_on)
     SELECT g, 1 + (g * 11) % ${customers}, 'Ticket ' || g || ': ' || ${words}[1 + g % 10], ${body},
            hstore(ARRAY['os', 'app'], ARRAY[(ARRAY['linux','mac','win'])[1 + g % 3], 'v' || g % 20]),
            CASE WHEN g % 3 = 0 ${b ? '' : 'AND false'} THEN decode(repeat(md5(g::text), 40), 'hex') END,
            g % 5, CASE WHEN g % 9 = 0 THEN 1 END, (g % 10000) / 7.0, g % 100, date '2023-01-01' + (g % 500)::int,
            'agent' || g % 80, 'team' || g % 12, CASE WHEN g % 4 <> 0 THEN date '2023-01-01' + (g % 500)::int + 3 END
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hh_tickets_customer ON hh_tickets (customer_id)`,
    `CREATE INDEX hh_tickets_search ON hh_tickets USING gin (search)`,
    `CREATE TABLE hh_comments (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ticket_id bigint NOT NULL REFERENCES hh_tickets (id) ON DELETE CASCADE, body text NOT NULL)`,
    `INSERT INTO hh_comments (ticket_id, body) SELECT 1 + (g * 13) % ${n}, 'comment ' || g FROM generate_series(1, ${n * 2}) g`,
    `CREATE INDEX hh_comments_ticket ON hh_comments (ticket_id)`,
    `CREATE TABLE hh_bookings (id bigint PRIMARY KEY, room int NOT NULL, during tstzrange NOT NULL)`,
    `INSERT INTO hh_bookings SELECT g, g % 400, tstzrange(timestamptz '2024-01-01' + (g / 400) * interval '2 hours', timestamptz '2024-01-01' + (g / 400) * interval '2 hours' + interval '90 minutes')
     FROM generate_series(1, ${Math.round(n / 2)}) g`,
    `VACUUM ANALYZE hh_customers, hh_tickets, hh_comments, hh_bookings`,
  ];
  const statements = [
    // The SET is a subquery per row (comments by the ticket's index).
    `UPDATE hh_tickets t SET comment_count = (SELECT count(*) FROM hh_comments c WHERE c.ticket_id = t.id) WHERE t.priority = 4`,
    // Fires the tsvector trigger (the body is set).
    `UPDATE hh_tickets SET body = body || ' (escalated)' WHERE reopened = 1`,
    `DELETE FROM hh_comments WHERE ticket_id % 50 = 3 RETURNING id`,
    `ALTER TABLE hh_tickets ALTER COLUMN assignee TYPE varchar(120)`,
    `ALTER TABLE hh_tickets ALTER COLUMN team TYPE varchar(10)`,
    `ALTER TABLE hh_tickets ADD COLUMN source text NOT NULL DEFAULT 'email'`,
    `SETUP UPDATE hh_tickets SET closed_on = date '2024-06-01' WHERE closed_on IS NULL`,
    `ALTER TABLE hh_tickets ALTER COLUMN closed_on SET NOT NULL`,
    `CREATE INDEX hh_h1 ON hh_tickets ((attrs -> 'os'))`,
    `DROP INDEX hh_h1`,
    `CREATE INDEX hh_h2 ON hh_tickets (subject)`,
    `DROP INDEX hh_h2`,
    `CREATE INDEX hh_h3 ON hh_tickets (score DESC NULLS LAST) WHERE priority > 2`,
    `DROP INDEX hh_h3`,
    `ALTER TABLE hh_bookings ADD CONSTRAINT hh_no_overlap EXCLUDE USING gist (room WITH =, during WITH &&)`,
    // Through the BEFORE INSERT trigger: to_tsvector per row, then the GIN index.
    `INSERT INTO hh_tickets (id, customer_id, subject, body, priority, closed_on) SELECT id + ${n * 10}, customer_id, subject, body, priority, closed_on FROM hh_tickets WHERE id % 40 = 9`,
    // Cascades to the customers' tickets and on to their comments.
    `DELETE FROM hh_customers WHERE id % 300 = 7`,
    `ALTER TABLE hh_tickets ADD COLUMN weight numeric GENERATED ALWAYS AS (priority * 1.5 + coalesce(score, 0)) STORED`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      /^DELETE FROM hh_comments/.test(sql)
        ? 'hh_comments'
        : /hh_bookings/.test(sql)
          ? 'hh_bookings'
          : /^DELETE FROM hh_customers/.test(sql)
            ? 'hh_customers'
            : 'hh_tickets',
  };
}
