import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set K for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's row-count changes (INSERT ... SELECT planned, sub-queries planned, REFRESH) and
 * before the re-calibration on this machine; run once, on the model as the round leaves it.
 * Shapes no earlier set or calibration table has:
 * - telemetry events: an identity key, a nullable tenant referenced ON DELETE SET NULL, `inet`,
 *   `real`, a boolean flag, a uuid session, `text[]` tags under GIN, a jsonb payload, and a daily
 *   roll-up table;
 * - statements: an UPDATE on a boolean and a range, a range DELETE by time, array_append on the
 *   rows over a score (their tags in a GIN index), a jsonb key removed where the `?` operator
 *   finds it, an INSERT ... SELECT ... GROUP BY into the roll-up, a parent DELETE that sets the
 *   children's key NULL, an UPDATE joined to its parent, btree and GiST indexes on inet, a
 *   covering index, a partial index on a uuid, a CHECK added NOT VALID then validated, real to
 *   double precision, an identity column added, and CLUSTER.
 * Variant A: 1.2M events over 2,000 tenants, small payloads, few flagged for debug. Variant B:
 * 500k events, 70 % of them in 100 tenants, payloads of about 600 bytes with a debug key in 30 %,
 * six tags each.
 */
export function setK(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const tenants = 2_000;
  const tenant = b ? `CASE WHEN g % 10 < 7 THEN 1 + (g * 3) % 100 ELSE 1 + (g * 3) % ${tenants} END` : `1 + (g * 3) % ${tenants}`;
  const payload = b
    ? `jsonb_build_object('ua', repeat('m', 400), 'path', '/p/' || g % 5000, 'ms', g % 900) || CASE WHEN g % 10 < 3 THEN jsonb_build_object('debug', repeat('d', 120)) ELSE '{}' END`
    : `jsonb_build_object('path', '/p/' || g % 500, 'ms', g % 900) || CASE WHEN g % 100 = 0 THEN jsonb_build_object('debug', true) ELSE '{}'::jsonb END`;
  const tags = b ? `ARRAY['t' || g % 40, 'u' || g % 9, 'v' || g % 300, 'w' || g % 3, 'x' || g % 1000, 'y' || g % 17]` : `ARRAY['t' || g % 40, 'u' || g % 9]`;
  const setup = [
    `DROP TABLE IF EXISTS hk_daily, hk_events, hk_tenants CASCADE`,
    `CREATE TABLE hk_tenants (id int PRIMARY KEY, tier text NOT NULL, name text NOT NULL)`,
    `INSERT INTO hk_tenants SELECT g, CASE WHEN g % 4 = 0 THEN 'free' ELSE 'paid' END, 'tenant ' || g FROM generate_series(1, ${tenants}) g`,
    `CREATE TABLE hk_events (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tenant_id int REFERENCES hk_tenants (id) ON DELETE SET NULL,
       created_at timestamptz NOT NULL, ip inet NOT NULL, score real NOT NULL, processed boolean NOT NULL, session uuid NOT NULL, tags text[] NOT NULL, payload jsonb NOT NULL)`,
    `INSERT INTO hk_events (tenant_id, created_at, ip, score, processed, session, tags, payload)
     SELECT ${tenant}, timestamptz '2024-01-01' + g * interval '${b ? 10 : 4} seconds',
            ('10.' || (g % 250) || '.' || ((g * 7) % 250) || '.' || ((g * 13) % 250))::inet, ((g * 7919) % 1000) / 1000.0,
            g < ${Math.round(n * 0.8)}, md5((g % ${Math.round(n / 5)})::text)::uuid, ${tags}, ${payload}
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hk_events_tenant ON hk_events (tenant_id)`,
    `CREATE INDEX hk_events_created ON hk_events (created_at)`,
    `CREATE INDEX hk_events_tags ON hk_events USING gin (tags)`,
    `CREATE TABLE hk_daily (tenant_id int, day date, events bigint)`,
    `VACUUM ANALYZE hk_tenants, hk_events, hk_daily`,
  ];
  const start = `timestamptz '2024-01-01'`;
  const statements = [
    `UPDATE hk_events SET processed = true WHERE NOT processed AND created_at < ${start} + interval '${Math.round(n * (b ? 10 : 4) * 0.9)} seconds'`,
    `DELETE FROM hk_events WHERE created_at < ${start} + interval '${Math.round(n * (b ? 10 : 4) * 0.08)} seconds'`,
    `UPDATE hk_events SET tags = array_append(tags, 'seen') WHERE score > 0.95`,
    `UPDATE hk_events SET payload = payload - 'debug' WHERE payload ? 'debug'`,
    `INSERT INTO hk_daily SELECT tenant_id, created_at::date, count(*) FROM hk_events GROUP BY 1, 2`,
    `DELETE FROM hk_tenants WHERE id % 50 = 0`,
    `UPDATE hk_events e SET score = 0 FROM hk_tenants t WHERE t.id = e.tenant_id AND t.tier = 'free'`,
    `CREATE INDEX hk_k1 ON hk_events (ip)`,
    `DROP INDEX hk_k1`,
    `CREATE INDEX hk_k2 ON hk_events USING gist (ip inet_ops)`,
    `DROP INDEX hk_k2`,
    `CREATE INDEX hk_k3 ON hk_events (tenant_id, created_at) INCLUDE (score)`,
    `DROP INDEX hk_k3`,
    `CREATE INDEX hk_k4 ON hk_events (session) WHERE NOT processed`,
    `DROP INDEX hk_k4`,
    `ALTER TABLE hk_events ADD CONSTRAINT hk_score_range CHECK (score BETWEEN 0 AND 1) NOT VALID`,
    `ALTER TABLE hk_events VALIDATE CONSTRAINT hk_score_range`,
    `ALTER TABLE hk_events ALTER COLUMN score TYPE double precision`,
    `ALTER TABLE hk_events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`,
    `CLUSTER hk_events USING hk_events_created`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^DELETE FROM hk_tenants/.test(sql) ? 'hk_tenants' : /^INSERT INTO hk_daily/.test(sql) ? 'hk_daily' : 'hk_events'),
  };
}
