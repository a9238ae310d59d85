import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AI for `bench/lock-timing.ts` (issue #32), written and committed after AH ran and
 * before session 25's model changes, to be run once after them. Shapes no earlier set or
 * calibration table has:
 * - ad clicks keyed by a bigint in click order, a campaign (ON DELETE CASCADE, a few hundred
 *   clicks a campaign), a client address in inet, a user agent in text, a country in char(2), a
 *   cost in numeric(10,4), a click time, a conversion flag true on a few rows, a source in an enum
 *   of four values; indexes on campaign and time, a partial one on the converted clicks, GiST on
 *   the address (inet_ops), besides the key; a daily summary filled by an aggregating INSERT;
 * - statements: a foreign key validated, an UPDATE converting clicks from a network range (an
 *   inet containment the planner estimates by a default), an UPDATE of the cost for two countries
 *   (no indexed column), a DELETE of clicks at one hour of the day (an expression), a DELETE of
 *   ended campaigns cascading into their clicks, the aggregating INSERT, an SP-GiST index on the
 *   address, an index on country and cost descending, a unique index on campaign and key, an
 *   index on the user agent built CONCURRENTLY, a REINDEX of the campaign index, the cost's
 *   precision widened (no rewrite), the country changed to text (a rewrite), CLUSTER on the time
 *   index, SET NOT NULL on the address and a column added with a stable default.
 * Variant A: 1.2M clicks in click order, campaigns taking turns, user agents of about 70 bytes.
 * Variant B: 400k clicks in no heap order, a tenth of the campaigns holding most clicks, user
 * agents of about 180 bytes, at fillfactor 90.
 */
export function setAI(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const campaigns = 4_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const campaign = b ? `CASE WHEN ${k} % 10 < 8 THEN 1 + (${k} * 19) % 400 ELSE 1 + (${k} * 23) % ${campaigns} END` : `1 + ${k} % ${campaigns}`;
  const clicked = `timestamptz '2024-01-01' + (${k} * 31536000.0 / ${n}) * interval '1 second'`;
  // Addresses over 10.0.0.0-11.255.255.255 in no order (a multiplicative hash of the key).
  const ip = `(inet '10.0.0.0' + (${k} * 2654435761) % 33554432)`;
  const agent = b
    ? `'Mozilla/5.0 (' || (ARRAY['X11; Linux x86_64', 'Windows NT 10.0; Win64; x64', 'Macintosh; Intel Mac OS X 14_1'])[1 + ${k} % 3] || ') ' || md5(${k}::text) || md5((${k} * 3)::text) || md5((${k} * 7)::text) || ' Safari/' || ${k} % 600`
    : `'Mozilla/5.0 (' || (ARRAY['X11; Linux x86_64', 'Windows NT 10.0', 'iPhone'])[1 + ${k} % 3] || ') Gecko/' || ${k} % 5000`;
  const country = `(ARRAY['DE', 'FR', 'US', 'GB', 'NL', 'ES', 'IT', 'PL', 'SE', 'BR'])[1 + (${k} * 7) % 10]`;
  const setup = [
    `DROP TABLE IF EXISTS hai_clicks, hai_campaigns, hai_daily CASCADE`,
    `DROP TYPE IF EXISTS hai_source`,
    `CREATE TYPE hai_source AS ENUM ('search', 'social', 'display', 'email')`,
    `CREATE TABLE hai_campaigns (id int PRIMARY KEY, name text NOT NULL, ended_at timestamptz)`,
    `INSERT INTO hai_campaigns SELECT g, 'campaign ' || g, CASE WHEN g % 53 = 0 THEN timestamptz '2024-03-01' END FROM generate_series(1, ${campaigns}) g`,
    `CREATE TABLE hai_clicks (id bigint PRIMARY KEY, campaign_id int NOT NULL, ip inet, user_agent text NOT NULL, country char(2) NOT NULL,
       cost numeric(10,4) NOT NULL, clicked_at timestamptz NOT NULL, converted boolean NOT NULL, source hai_source NOT NULL)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO hai_clicks
     SELECT ${k}, ${campaign}, ${ip}, ${agent}, ${country}, round(((${k} * 7907) % 30000) / 10000.0 + 0.05, 4), ${clicked},
            ${k} % 37 = 0, (ARRAY['search', 'social', 'display', 'email'])[1 + (${k} * 3) % 4]::hai_source
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hai_clicks_campaign_time ON hai_clicks (campaign_id, clicked_at)`,
    `CREATE INDEX hai_clicks_converted ON hai_clicks (clicked_at) WHERE converted`,
    `CREATE INDEX hai_clicks_ip ON hai_clicks USING gist (ip inet_ops)`,
    `CREATE TABLE hai_daily (campaign_id int NOT NULL, day date NOT NULL, clicks bigint NOT NULL, cost numeric NOT NULL, PRIMARY KEY (campaign_id, day))`,
    `VACUUM ANALYZE hai_campaigns, hai_clicks`,
  ];
  const statements = [
    `SETUP ALTER TABLE hai_clicks ADD CONSTRAINT hai_clicks_campaign_fk FOREIGN KEY (campaign_id) REFERENCES hai_campaigns (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE hai_clicks VALIDATE CONSTRAINT hai_clicks_campaign_fk`,
    `UPDATE hai_clicks SET converted = true WHERE ip << inet '10.16.0.0/12'`,
    `UPDATE hai_clicks SET cost = cost * 1.1 WHERE country IN ('DE', 'FR')`,
    `DELETE FROM hai_clicks WHERE extract(hour FROM clicked_at AT TIME ZONE 'UTC') = 3`,
    `DELETE FROM hai_campaigns WHERE ended_at < timestamptz '2024-06-01'`,
    `INSERT INTO hai_daily SELECT campaign_id, (clicked_at AT TIME ZONE 'UTC')::date, count(*), sum(cost) FROM hai_clicks GROUP BY 1, 2`,
    `CREATE INDEX hai_c1 ON hai_clicks USING spgist (ip)`,
    `DROP INDEX hai_c1`,
    `CREATE INDEX hai_c2 ON hai_clicks (country, cost DESC)`,
    `DROP INDEX hai_c2`,
    `CREATE UNIQUE INDEX hai_c3 ON hai_clicks (campaign_id, id)`,
    `DROP INDEX hai_c3`,
    `CREATE INDEX CONCURRENTLY hai_c4 ON hai_clicks (user_agent)`,
    `DROP INDEX hai_c4`,
    `REINDEX INDEX hai_clicks_campaign_time`,
    `ALTER TABLE hai_clicks ALTER COLUMN cost TYPE numeric(14,4)`,
    `ALTER TABLE hai_clicks ALTER COLUMN country TYPE text`,
    `CLUSTER hai_clicks USING hai_clicks_campaign_time`,
    `ALTER TABLE hai_clicks ALTER COLUMN ip SET NOT NULL`,
    `ALTER TABLE hai_clicks ADD COLUMN seen_at timestamptz DEFAULT now()`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO hai_daily ') ? 'hai_daily' : sql.includes('hai_campaigns WHERE') ? 'hai_campaigns' : 'hai_clicks'),
  };
}
