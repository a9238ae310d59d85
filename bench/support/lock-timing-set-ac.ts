import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AC for `bench/lock-timing.ts` (issue #32, sixteenth round), written and committed
 * after set AB ran and before the round's change, to be run once after it. Shapes no earlier set or
 * calibration table has:
 * - parcel scan events of a courier: a bigint key, a parcel id (a dozen events a parcel), a hub
 *   they reference (a parent of 200 rows, ON DELETE CASCADE), a scan time, a status in smallint of
 *   eight values, a weight in int, dimensions as text (`30x20x10`), a carrier in text of five
 *   values with some capitals, a note mostly NULL; three indexes besides the key (the parcel, the
 *   hub and time together, a partial one on the failed scans);
 * - three summaries filled by aggregating INSERTs: a hub and a day, a parcel's last scan, a carrier
 *   and a status;
 * - statements: a CHECK on the weight, a foreign key validated, an UPDATE of old scans of one
 *   status, an UPDATE upper-casing the carrier where it has lower-case letters, a DELETE of noted
 *   scans of one status, a DELETE of ten hubs cascading into their scans, the three aggregating
 *   INSERTs, an index on the status, an index on parcel and time, an index on the lower-cased
 *   dimensions, an index on the hub built CONCURRENTLY, the weight's type changed to bigint (a
 *   rewrite rebuilding four indexes), SET NOT NULL on the carrier and a boolean column added with
 *   a default (the catalog only).
 * Variant A: 1.2M events in time order, hubs taking turns. Variant B: 400k events in no order, a
 * tenth of the hubs holding most, notes of about 150 bytes on a third of the rows, at fillfactor 85.
 */
export function setAC(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const hubs = 200;
  const hub = b ? `CASE WHEN g % 10 < 7 THEN 1 + (g * 7) % 20 ELSE 1 + (g * 13) % ${hubs} END` : `1 + g % ${hubs}`;
  const at = b
    ? `timestamptz '2024-03-01' + ((g * 7919) % 15552000) * interval '1 second'`
    : `timestamptz '2024-03-01' + (g * 15552000.0 / ${n}) * interval '1 second'`;
  const note = b ? `CASE WHEN g % 3 = 0 THEN 'left at door ' || repeat(md5(g::text), 4) END` : `CASE WHEN g % 50 = 0 THEN 'left at door' END`;
  const setup = [
    `DROP TABLE IF EXISTS hac_events, hac_hubs, hac_hub_day, hac_parcel_last, hac_carrier CASCADE`,
    `CREATE TABLE hac_hubs (id int PRIMARY KEY, city text NOT NULL)`,
    `INSERT INTO hac_hubs SELECT g, 'city-' || g FROM generate_series(1, ${hubs}) g`,
    `CREATE TABLE hac_events (id bigint PRIMARY KEY, parcel_id bigint NOT NULL, hub_id int NOT NULL, scanned_at timestamptz NOT NULL,
       status smallint NOT NULL, weight_g int NOT NULL, dims text NOT NULL, carrier text, note text)${b ? ' WITH (fillfactor = 85)' : ''}`,
    `INSERT INTO hac_events
     SELECT g, ${b ? '(g * 104729) % ' + Math.max(1, Math.round(n / 12)) : 'g / 12'}, ${hub}, ${at}, (g * 3) % 8, 100 + (g * 37) % 30000,
            (10 + g % 50) || 'x' || (10 + g % 30) || 'x' || (5 + g % 20),
            (ARRAY['ups', 'dhl', 'gls', 'dpd', 'post'])[1 + g % 5] || CASE WHEN g % 30 = 0 THEN '-Express' ELSE '' END, ${note}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hac_events_parcel ON hac_events (parcel_id)`,
    `CREATE INDEX hac_events_hub_time ON hac_events (hub_id, scanned_at)`,
    `CREATE INDEX hac_events_failed ON hac_events (scanned_at) WHERE status = 6`,
    `CREATE TABLE hac_hub_day (hub_id int NOT NULL, day date NOT NULL, scans bigint NOT NULL, grams bigint NOT NULL, PRIMARY KEY (hub_id, day))`,
    `CREATE TABLE hac_parcel_last (parcel_id bigint PRIMARY KEY, last_at timestamptz NOT NULL)`,
    `CREATE TABLE hac_carrier (carrier text, status smallint, scans bigint)`,
    `VACUUM ANALYZE hac_hubs, hac_events`,
  ];
  const statements = [
    `ALTER TABLE hac_events ADD CONSTRAINT hac_weight_ok CHECK (weight_g > 0 AND weight_g < 100000)`,
    `SETUP ALTER TABLE hac_events ADD CONSTRAINT hac_events_hub_fk FOREIGN KEY (hub_id) REFERENCES hac_hubs (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE hac_events VALIDATE CONSTRAINT hac_events_hub_fk`,
    `UPDATE hac_events SET status = 7 WHERE status = 3 AND scanned_at < timestamptz '2024-04-15'`,
    `UPDATE hac_events SET carrier = upper(carrier) WHERE carrier <> upper(carrier) AND carrier LIKE '%-%'`,
    `DELETE FROM hac_events WHERE note IS NOT NULL AND status = 1`,
    `DELETE FROM hac_hubs WHERE id > 190`,
    `INSERT INTO hac_hub_day SELECT hub_id, scanned_at::date, count(*), sum(weight_g) FROM hac_events GROUP BY 1, 2`,
    `INSERT INTO hac_parcel_last SELECT parcel_id, max(scanned_at) FROM hac_events WHERE status <> 0 GROUP BY parcel_id`,
    `INSERT INTO hac_carrier SELECT carrier, status, count(*) FROM hac_events GROUP BY carrier, status`,
    `CREATE INDEX hac_c1 ON hac_events (status)`,
    `DROP INDEX hac_c1`,
    `CREATE INDEX hac_c2 ON hac_events (parcel_id, scanned_at)`,
    `DROP INDEX hac_c2`,
    `CREATE INDEX hac_c3 ON hac_events (lower(dims))`,
    `DROP INDEX hac_c3`,
    `CREATE INDEX CONCURRENTLY hac_c4 ON hac_events (hub_id)`,
    `DROP INDEX hac_c4`,
    `ALTER TABLE hac_events ALTER COLUMN weight_g TYPE bigint`,
    `ALTER TABLE hac_events ALTER COLUMN carrier SET NOT NULL`,
    `ALTER TABLE hac_events ADD COLUMN checked boolean NOT NULL DEFAULT false`,
  ];
  const summaries = ['hac_hub_day', 'hac_parcel_last', 'hac_carrier'];
  return {
    setup,
    statements,
    tableOf: (sql) => summaries.find((t) => sql.startsWith(`INSERT INTO ${t} `)) ?? (sql.includes('hac_hubs WHERE') ? 'hac_hubs' : 'hac_events'),
  };
}
