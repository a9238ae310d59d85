import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set AB for `bench/lock-timing.ts` (issue #32, fifteenth round), written and committed
 * after set AA ran and before the round's first model change, to be run once after the round's
 * last. Shapes no earlier set or calibration table has:
 * - analytics events of a mobile app: a bigint identity key, an app they reference (a parent of
 *   400 rows, ON DELETE CASCADE), a user hash in bigint, a kind in smallint of 20 values, an
 *   occurred time, a platform in text of three values with some capitals, a version string, a
 *   latitude and longitude in real, a session uuid and small jsonb properties; three indexes
 *   besides the key (app and time together, the user hash, the session);
 * - two summaries filled by aggregating INSERT ... SELECTs: one of a few thousand groups (a day
 *   and a kind), one of a group per user;
 * - statements: a CHECK on the coordinates, a foreign key validated, an UPDATE lowering the
 *   platform where it has capitals, an UPDATE removing a debug property where the `?` operator
 *   finds it, an UPDATE of the kinds of recent rows of two kinds, a DELETE of the oldest twentieth,
 *   a DELETE of twenty apps cascading into their events, the two aggregating INSERTs, an index on
 *   the kind, an index on the version in the "C" collation, an index on platform and kind, a BRIN
 *   on the time, an index on the user hash and the time descending built CONCURRENTLY, the
 *   latitude's type changed to double precision (a rewrite rebuilding four indexes), SET NOT NULL
 *   on the version and a jsonb column added with a default (the catalog only).
 * Variant A: 1.2M events in time order, apps taking turns, a few properties. Variant B: 400k
 * events in no order, a fifth of the apps holding most, properties of about 200 bytes, at
 * fillfactor 85.
 */
export function setAB(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const apps = 400;
  const app = b ? `CASE WHEN g % 10 < 8 THEN 1 + (g * 13) % 80 ELSE 1 + (g * 7) % ${apps} END` : `1 + g % ${apps}`;
  const at = b
    ? `timestamptz '2024-01-01' + ((g * 7919) % 31536000) * interval '1 second'`
    : `timestamptz '2024-01-01' + (g * 31536000.0 / ${n}) * interval '1 second'`;
  const props = b
    ? `jsonb_build_object('screen', 'screen-' || (g % 90), 'payload', repeat(md5(g::text), 5)) || CASE WHEN g % 6 = 0 THEN jsonb '{"debug": true}' ELSE jsonb '{}' END`
    : `jsonb_build_object('screen', 'screen-' || (g % 90)) || CASE WHEN g % 6 = 0 THEN jsonb '{"debug": true}' ELSE jsonb '{}' END`;
  const setup = [
    `DROP TABLE IF EXISTS hab_events, hab_apps, hab_daily_kind, hab_user_last CASCADE`,
    `CREATE TABLE hab_apps (id int PRIMARY KEY, name text NOT NULL)`,
    `INSERT INTO hab_apps SELECT g, 'app-' || g FROM generate_series(1, ${apps}) g`,
    `CREATE TABLE hab_events (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, app_id int NOT NULL, user_hash bigint NOT NULL, kind smallint NOT NULL,
       occurred_at timestamptz NOT NULL, platform text NOT NULL, version text, lat real NOT NULL, lon real NOT NULL, session uuid NOT NULL,
       props jsonb NOT NULL)${b ? ' WITH (fillfactor = 85)' : ''}`,
    `INSERT INTO hab_events (app_id, user_hash, kind, occurred_at, platform, version, lat, lon, session, props)
     SELECT ${app}, (g * 2654435761) % 200003, (g * 7) % 20, ${at},
            (ARRAY['ios', 'android', 'web'])[1 + g % 3] || CASE WHEN g % 40 = 0 THEN '-Beta' ELSE '' END,
            (g % 4) || '.' || (g % 11) || '.' || (g % 23), ((g * 37) % 18000) / 100.0 - 90, ((g * 53) % 36000) / 100.0 - 180,
            md5('session' || (g / 12))::uuid, ${props}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hab_events_app_time ON hab_events (app_id, occurred_at)`,
    `CREATE INDEX hab_events_user ON hab_events (user_hash)`,
    `CREATE INDEX hab_events_session ON hab_events (session)`,
    `CREATE TABLE hab_daily_kind (day timestamptz NOT NULL, kind smallint NOT NULL, events bigint NOT NULL)`,
    `CREATE TABLE hab_user_last (user_hash bigint PRIMARY KEY, last_at timestamptz NOT NULL, events bigint NOT NULL)`,
    `VACUUM ANALYZE hab_apps, hab_events`,
  ];
  const statements = [
    `ALTER TABLE hab_events ADD CONSTRAINT hab_coords_ok CHECK (lat BETWEEN -90 AND 90 AND lon BETWEEN -180 AND 180)`,
    `SETUP ALTER TABLE hab_events ADD CONSTRAINT hab_events_app_fk FOREIGN KEY (app_id) REFERENCES hab_apps (id) ON DELETE CASCADE NOT VALID`,
    `ALTER TABLE hab_events VALIDATE CONSTRAINT hab_events_app_fk`,
    `UPDATE hab_events SET platform = lower(platform) WHERE platform <> lower(platform)`,
    `UPDATE hab_events SET props = props - 'debug' WHERE props ? 'debug'`,
    `UPDATE hab_events SET kind = kind + 100 WHERE kind IN (3, 7) AND occurred_at > timestamptz '2024-11-01'`,
    `DELETE FROM hab_events WHERE occurred_at < timestamptz '2024-01-19'`,
    `DELETE FROM hab_apps WHERE id BETWEEN 41 AND 60`,
    `INSERT INTO hab_daily_kind SELECT date_trunc('day', occurred_at), kind, count(*) FROM hab_events GROUP BY 1, 2`,
    `INSERT INTO hab_user_last SELECT user_hash, max(occurred_at), count(*) FROM hab_events GROUP BY user_hash`,
    `CREATE INDEX hab_b1 ON hab_events (kind)`,
    `DROP INDEX hab_b1`,
    `CREATE INDEX hab_b2 ON hab_events (version COLLATE "C")`,
    `DROP INDEX hab_b2`,
    `CREATE INDEX hab_b3 ON hab_events (platform, kind)`,
    `DROP INDEX hab_b3`,
    `CREATE INDEX hab_b4 ON hab_events USING brin (occurred_at)`,
    `DROP INDEX hab_b4`,
    `CREATE INDEX CONCURRENTLY hab_b5 ON hab_events (user_hash, occurred_at DESC)`,
    `DROP INDEX hab_b5`,
    `ALTER TABLE hab_events ALTER COLUMN lat TYPE double precision`,
    `ALTER TABLE hab_events ALTER COLUMN version SET NOT NULL`,
    `ALTER TABLE hab_events ADD COLUMN context jsonb NOT NULL DEFAULT '{}'`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) =>
      sql.startsWith('INSERT INTO hab_daily_kind')
        ? 'hab_daily_kind'
        : sql.startsWith('INSERT INTO hab_user_last')
          ? 'hab_user_last'
          : sql.includes('hab_apps WHERE')
            ? 'hab_apps'
            : 'hab_events',
  };
}
