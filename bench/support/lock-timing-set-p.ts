import type { LockTimingSet } from './lock-timing-set-f';

/**
 * Held-out set P for `bench/lock-timing.ts` (issue #32, sixth round), written and committed after
 * the round's last model change (a validation priced at the preflight check's own time) and run
 * once on the model as the round leaves it. Shapes no earlier set or calibration table has:
 * - shipments with a serial key, a nullable carrier code, a smallint priority, a date window
 *   (two dates), a weight in real, a tracking text with a prefix, an hstore-free jsonb address,
 *   and their events, referencing them with an index;
 * - statements: a CHECK across two columns (dates in order), a CHECK with coalesce, SET NOT NULL
 *   after a backfill, a foreign key from the events added in one step, a backfill UPDATE with
 *   coalesce on a third of the rows, an UPDATE through an expression index's column, a DELETE
 *   of old delivered rows, an INSERT ... SELECT with a join, an index on an expression
 *   (upper()), a three-column index, a DESC date index, a unique index on the tracking text,
 *   an expression in a rewrite (ALTER TYPE ... USING), and a column with a volatile default.
 * Variant A: 900k shipments, short addresses. Variant B: 300k shipments with addresses of about
 * 500 bytes, carriers skewed (70 % one carrier).
 */
export function setP(variant: 'A' | 'B', n: number): LockTimingSet {
  const b = variant === 'B';
  const carrier = b
    ? `CASE WHEN g % 10 < 7 THEN 'DHL' WHEN g % 20 = 7 THEN NULL ELSE (ARRAY['UPS','GLS','DPD'])[1 + g % 3] END`
    : `CASE WHEN g % 20 = 7 THEN NULL ELSE (ARRAY['DHL','UPS','GLS','DPD','FDX'])[1 + g % 5] END`;
  const address = b
    ? `jsonb_build_object('street', repeat('Long Street ', 30) || g, 'city', 'City ' || g % 300, 'zip', lpad((g % 99999)::text, 5, '0'))`
    : `jsonb_build_object('city', 'City ' || g % 300, 'zip', lpad((g % 99999)::text, 5, '0'))`;
  const setup = [
    `DROP TABLE IF EXISTS hp_events, hp_shipments CASCADE`,
    `CREATE TABLE hp_shipments (id serial PRIMARY KEY, carrier text, priority smallint NOT NULL, ships_on date NOT NULL, due_on date NOT NULL,
       weight real NOT NULL, tracking text NOT NULL, address jsonb NOT NULL, delivered boolean NOT NULL, note text)`,
    `INSERT INTO hp_shipments (carrier, priority, ships_on, due_on, weight, tracking, address, delivered, note)
     SELECT ${carrier}, (g % 4)::smallint, date '2023-01-01' + (g * 13 % 700)::int, date '2023-01-01' + (g * 13 % 700)::int + (g % 9)::int,
            ((g * 7919) % 30000) / 1000.0, 'TRK' || lpad(g::text, 10, '0'), ${address}, g % 3 <> 0, CASE WHEN g % 4 = 0 THEN 'fragile' END
     FROM generate_series(1::bigint, ${n}) g`,
    `CREATE INDEX hp_shipments_ships ON hp_shipments (ships_on)`,
    `CREATE TABLE hp_events (id bigint PRIMARY KEY, shipment_id int NOT NULL, at timestamptz NOT NULL, kind text NOT NULL)`,
    `INSERT INTO hp_events SELECT g, 1 + (g * 7) % ${n}, timestamptz '2023-01-01' + g * interval '30 seconds', (ARRAY['picked','sorted','out','done'])[1 + g % 4]
     FROM generate_series(1::bigint, ${Math.round(n * 1.2)}) g`,
    `CREATE INDEX hp_events_shipment ON hp_events (shipment_id)`,
    `VACUUM ANALYZE hp_shipments, hp_events`,
  ];
  const statements = [
    `ALTER TABLE hp_shipments ADD CONSTRAINT hp_window CHECK (due_on >= ships_on)`,
    `ALTER TABLE hp_shipments ADD CONSTRAINT hp_note_known CHECK (coalesce(note, '') <> 'unknown')`,
    `UPDATE hp_shipments SET carrier = coalesce(carrier, 'NONE') WHERE carrier IS NULL OR priority = 3`,
    `ALTER TABLE hp_shipments ALTER COLUMN carrier SET NOT NULL`,
    `ALTER TABLE hp_events ADD CONSTRAINT hp_events_shipment FOREIGN KEY (shipment_id) REFERENCES hp_shipments (id)`,
    `UPDATE hp_shipments SET ships_on = ships_on - 1 WHERE priority = 1 AND NOT delivered`,
    `DELETE FROM hp_events WHERE kind = 'done' AND at < timestamptz '2023-01-01' + interval '${Math.round(n * 1.2 * 30 * 0.3)} seconds'`,
    `INSERT INTO hp_events SELECT e.id + ${n * 10}, e.shipment_id, e.at + interval '1 day', 'audited' FROM hp_events e JOIN hp_shipments s ON s.id = e.shipment_id WHERE s.priority = 2 AND e.kind = 'out'`,
    `CREATE INDEX hp_p1 ON hp_shipments (upper(carrier))`,
    `DROP INDEX hp_p1`,
    `CREATE INDEX hp_p2 ON hp_shipments (carrier, priority, due_on)`,
    `DROP INDEX hp_p2`,
    `CREATE INDEX hp_p3 ON hp_shipments (due_on DESC)`,
    `DROP INDEX hp_p3`,
    `CREATE UNIQUE INDEX hp_p4 ON hp_shipments (tracking)`,
    `DROP INDEX hp_p4`,
    `ALTER TABLE hp_shipments ALTER COLUMN weight TYPE numeric(8, 3) USING round(weight::numeric, 3)`,
    `ALTER TABLE hp_shipments ADD COLUMN label_id uuid DEFAULT gen_random_uuid()`,
  ];
  return {
    setup,
    statements,
    tableOf: (sql) => (/^(ALTER TABLE|DELETE FROM|INSERT INTO) hp_events/.test(sql) ? 'hp_events' : 'hp_shipments'),
  };
}
