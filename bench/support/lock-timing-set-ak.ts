import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AK for `bench/lock-timing.ts` (issue #32), written and committed after AJ ran and
 * before the changes its run called for, to be run once after them. Shapes no earlier set or
 * calibration table has:
 * - ride-hailing trips keyed by a bigint in request order, a rider, a driver (ON DELETE SET NULL,
 *   a few hundred trips a driver), pickup and drop-off points, request, start and end times, a
 *   fare in numeric(8,2), a surge multiplier in real, a status in text of five values, a promo
 *   code on a few rows; indexes on driver and start, on rider, GiST on the pickup point, a partial
 *   one on the requested trips; a daily summary per driver filled by an aggregating INSERT;
 * - statements: a CHECK on the fare, an UPDATE of the fare by the surge for one month's completed
 *   trips, an UPDATE expiring requested trips older than a day (a partial index's column set), a
 *   DELETE of old cancelled trips, a DELETE of banned drivers setting their trips' driver NULL, the
 *   aggregating INSERT (a date_trunc in GROUP BY), a GiST index on the drop-off point, a partial
 *   index on the fare of promoted trips, an index on rider and request time built CONCURRENTLY, an
 *   index on the trip's duration (an expression), the surge changed to numeric(4,2) (a rewrite
 *   with a GiST index among five), SET NOT NULL on the status, and a column added.
 * Variant A: 1M trips in request order, riders and drivers taking turns. Variant B: 350k in no
 * heap order, a twentieth of the drivers driving most, promo codes on a third, at fillfactor 90.
 */
export function setAK(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const drivers = 5_000;
  // In B the rows go in by a permutation of g (a multiplier prime to n), in bigint (the products pass 2^31).
  const k = b ? `((g::bigint * 7919) % ${n} + 1)` : 'g::bigint';
  const driver = b ? `CASE WHEN ${k} % 10 < 7 THEN 1 + (${k} * 13) % 250 ELSE 1 + (${k} * 31) % ${drivers} END` : `1 + ${k} % ${drivers}`;
  const requested = `timestamptz '2024-01-01' + (${k} * 31536000.0 / ${n}) * interval '1 second'`;
  const status = `(ARRAY['completed', 'completed', 'completed', 'cancelled', 'completed', 'requested', 'completed', 'no_show'])[1 + (${k} * 7) % 8]`;
  const promo = b ? `CASE WHEN ${k} % 3 = 0 THEN 'PROMO' || ${k} % 500 END` : `CASE WHEN ${k} % 40 = 0 THEN 'SPRING' || ${k} % 20 END`;
  const setup = [
    `DROP TABLE IF EXISTS hak_trips, hak_drivers, hak_driver_days CASCADE`,
    `CREATE TABLE hak_drivers (id int PRIMARY KEY, name text NOT NULL, banned boolean NOT NULL)`,
    `INSERT INTO hak_drivers SELECT g, 'driver ' || g, g % 89 = 0 FROM generate_series(1, ${drivers}) g`,
    `CREATE TABLE hak_trips (id bigint PRIMARY KEY, rider_id int NOT NULL, driver_id int REFERENCES hak_drivers (id) ON DELETE SET NULL,
       pickup point NOT NULL, dropoff point NOT NULL, requested_at timestamptz NOT NULL, started_at timestamptz, ended_at timestamptz,
       fare numeric(8,2), surge real NOT NULL, status text, promo_code text)${b ? ' WITH (fillfactor = 90)' : ''}`,
    `INSERT INTO hak_trips
     SELECT ${k}, 1 + (${k} * 17) % 200000, ${driver}, point(13.3 + ((${k} * 7919) % 10007) / 20000.0, 52.4 + ((${k} * 104729) % 10009) / 40000.0),
            point(13.3 + ((${k} * 31) % 10007) / 20000.0, 52.4 + ((${k} * 37) % 10009) / 40000.0), ${requested},
            ${requested} + interval '4 minutes', ${requested} + ((8 + ${k} % 40) * interval '1 minute'), round((6 + (${k} * 13) % 4000 / 100.0)::numeric, 2),
            (ARRAY[1.0, 1.0, 1.0, 1.2, 1.5, 1.0, 2.0])[1 + ${k} % 7]::real, ${status}, ${promo}
     FROM generate_series(1, ${n}) g`,
    `CREATE INDEX hak_trips_driver_start ON hak_trips (driver_id, started_at)`,
    `CREATE INDEX hak_trips_rider ON hak_trips (rider_id)`,
    `CREATE INDEX hak_trips_pickup ON hak_trips USING gist (pickup)`,
    `CREATE INDEX hak_trips_requested ON hak_trips (requested_at) WHERE status = 'requested'`,
    `CREATE TABLE hak_driver_days (driver_id int NOT NULL, day timestamptz NOT NULL, trips bigint NOT NULL, fares numeric NOT NULL, PRIMARY KEY (driver_id, day))`,
    `VACUUM ANALYZE hak_drivers, hak_trips`,
  ];
  const statements = [
    `ALTER TABLE hak_trips ADD CONSTRAINT hak_fare_ok CHECK (fare >= 0)`,
    `UPDATE hak_trips SET fare = round((fare * surge)::numeric, 2) WHERE status = 'completed' AND requested_at >= timestamptz '2024-03-01' AND requested_at < timestamptz '2024-04-01'`,
    `UPDATE hak_trips SET status = 'expired' WHERE status = 'requested' AND requested_at < timestamptz '2024-11-01'`,
    `DELETE FROM hak_trips WHERE status = 'cancelled' AND requested_at < timestamptz '2024-03-01'`,
    `DELETE FROM hak_drivers WHERE banned`,
    `INSERT INTO hak_driver_days SELECT driver_id, date_trunc('day', requested_at), count(*), coalesce(sum(fare), 0) FROM hak_trips WHERE driver_id IS NOT NULL GROUP BY 1, 2`,
    `CREATE INDEX hak_c1 ON hak_trips USING gist (dropoff)`,
    `DROP INDEX hak_c1`,
    `CREATE INDEX hak_c2 ON hak_trips (fare) WHERE promo_code IS NOT NULL`,
    `DROP INDEX hak_c2`,
    `CREATE INDEX CONCURRENTLY hak_c3 ON hak_trips (rider_id, requested_at)`,
    `DROP INDEX hak_c3`,
    `CREATE INDEX hak_c4 ON hak_trips ((ended_at - started_at))`,
    `DROP INDEX hak_c4`,
    `ALTER TABLE hak_trips ALTER COLUMN surge TYPE numeric(4,2)`,
    `ALTER TABLE hak_trips ALTER COLUMN status SET NOT NULL`,
    `ALTER TABLE hak_trips ADD COLUMN rating smallint`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (sql.startsWith('INSERT INTO hak_driver_days ') ? 'hak_driver_days' : sql.includes('hak_drivers WHERE') ? 'hak_drivers' : 'hak_trips'),
  };
}
