import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set Z for `bench/lock-timing.ts` (issue #32, fourteenth round), written and committed
 * before the round's first model change, to be run once after the round's last. Shapes no
 * earlier set or calibration table has:
 * - e-mail deliveries of a mailing service: a bigint key, a campaign (a parent of 2,000 rows with a
 *   paused flag and a price rate), a recipient address in text with some capitals, a status in
 *   smallint, sent and opened times (opened NULL for most), attempts in smallint, a cost in
 *   numeric(10,4), a message uuid and headers in jsonb; three indexes besides the key (the
 *   campaign, the recipient, the message uuid unique);
 * - a table of bounced recipients with a unique index;
 * - statements: a CHECK over two columns, a foreign key validated, an UPDATE of the status of the
 *   opened rows (no index on it), an UPDATE lowering the recipient where it has capitals (an
 *   indexed column, an expression the planner guesses), an UPDATE of the cost joined to the paused
 *   campaigns, a DELETE of bounced rows tried three times or more, a DELETE of one campaign's
 *   rows, an INSERT ... SELECT grouping bounces per recipient, an index on the numeric cost, an
 *   index on the recipient's domain (an expression), a partial index on the unopened rows built
 *   CONCURRENTLY, attempts changed to int (a rewrite rebuilding four indexes), SET NOT NULL on
 *   the sent time, a boolean column added NOT NULL with a default (the catalog only).
 * Variant A: 900k deliveries in time order, campaigns in runs, small headers. Variant B: 300k in
 * no order, a few campaigns holding most, headers of about 300 bytes, at fillfactor 80.
 */
export function setZ(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const campaigns = 2_000;
  const campaign = b ? `1 + ((g % 97) * (g % 89) + g % 3) % ${campaigns}` : `1 + (g * ${campaigns} / ${n}) % ${campaigns}`;
  const sent = b
    ? `timestamptz '2022-01-01' + ((g * 7877) % 1051200) * interval '1 minute'`
    : `timestamptz '2022-01-01' + (g * 1051200.0 / ${n}) * interval '1 minute'`;
  const headers = b
    ? `jsonb_build_object('x-mailer', 'bulk/2.1', 'list-id', 'list-' || (g % 300), 'trace', repeat(md5(g::text), 7))`
    : `jsonb_build_object('x-mailer', 'bulk/2.1', 'list-id', 'list-' || (g % 300))`;
  const setup = [
    `DROP TABLE IF EXISTS hz_deliveries, hz_campaigns, hz_bounces CASCADE`,
    `CREATE TABLE hz_campaigns (id int PRIMARY KEY, name text NOT NULL, paused boolean NOT NULL, rate numeric(6,4) NOT NULL)`,
    `INSERT INTO hz_campaigns SELECT g, 'Campaign ' || g, g % 8 = 0, 0.9 + (g % 20) / 100.0 FROM generate_series(1, ${campaigns}) g`,
    `CREATE TABLE hz_deliveries (id bigint PRIMARY KEY, campaign_id int NOT NULL, recipient text NOT NULL, status smallint NOT NULL,
       sent_at timestamptz, opened_at timestamptz, attempts smallint NOT NULL, cost numeric(10,4) NOT NULL, message_id uuid NOT NULL,
       headers jsonb NOT NULL)${b ? ' WITH (fillfactor = 80)' : ''}`,
    `INSERT INTO hz_deliveries
     SELECT g, ${campaign},
            CASE WHEN g % 20 = 0 THEN 'User' ELSE 'user' END || (g % 150000) || '@' || (ARRAY['mail.test','post.example','inbox.test','corp.example'])[1 + g % 4],
            CASE WHEN g % 25 = 0 THEN 2 ELSE 1 END, ${sent},
            CASE WHEN g % 10 < 3 AND g % 25 <> 0 THEN ${sent} + (g % 600) * interval '1 minute' END,
            CASE WHEN g % 25 = 0 THEN 1 + g % 5 ELSE 1 END, 0.0004 + (g % 13) / 10000.0,
            md5('message' || g)::uuid, ${headers}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hz_deliveries_campaign ON hz_deliveries (campaign_id)`,
    `CREATE INDEX hz_deliveries_recipient ON hz_deliveries (recipient)`,
    `CREATE UNIQUE INDEX hz_deliveries_message ON hz_deliveries (message_id)`,
    `CREATE TABLE hz_bounces (recipient text NOT NULL, last_at timestamptz, n int NOT NULL)`,
    `CREATE UNIQUE INDEX hz_bounces_recipient ON hz_bounces (recipient)`,
    `VACUUM ANALYZE hz_campaigns, hz_deliveries`,
  ];
  const statements = [
    `ALTER TABLE hz_deliveries ADD CONSTRAINT hz_attempts_ok CHECK (attempts BETWEEN 0 AND 20 AND cost >= 0)`,
    `SETUP ALTER TABLE hz_deliveries ADD CONSTRAINT hz_deliveries_campaign_fk FOREIGN KEY (campaign_id) REFERENCES hz_campaigns (id) NOT VALID`,
    `ALTER TABLE hz_deliveries VALIDATE CONSTRAINT hz_deliveries_campaign_fk`,
    `UPDATE hz_deliveries SET status = 3 WHERE opened_at IS NOT NULL AND status = 1`,
    `UPDATE hz_deliveries SET recipient = lower(recipient) WHERE recipient <> lower(recipient)`,
    `UPDATE hz_deliveries d SET cost = d.cost * c.rate FROM hz_campaigns c WHERE c.id = d.campaign_id AND c.paused`,
    `DELETE FROM hz_deliveries WHERE status = 2 AND attempts >= 3`,
    `DELETE FROM hz_deliveries WHERE campaign_id = 1234`,
    `INSERT INTO hz_bounces SELECT recipient, max(sent_at), count(*) FROM hz_deliveries WHERE status = 2 GROUP BY recipient`,
    `CREATE INDEX hz_z1 ON hz_deliveries (cost)`,
    `DROP INDEX hz_z1`,
    `CREATE INDEX hz_z2 ON hz_deliveries (split_part(recipient, '@', 2))`,
    `DROP INDEX hz_z2`,
    `CREATE INDEX CONCURRENTLY hz_z3 ON hz_deliveries (sent_at) WHERE opened_at IS NULL`,
    `DROP INDEX hz_z3`,
    `ALTER TABLE hz_deliveries ALTER COLUMN attempts TYPE int`,
    `ALTER TABLE hz_deliveries ALTER COLUMN sent_at SET NOT NULL`,
    `ALTER TABLE hz_deliveries ADD COLUMN unsubscribed boolean NOT NULL DEFAULT false`,
  ];
  return { setup, statements, tableOf: (sql) => (sql.startsWith('INSERT INTO hz_bounces') ? 'hz_bounces' : 'hz_deliveries') };
}
