import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaSnapshot } from '../../packages/core/src/introspection/schema-snapshot';
import { cloneAndFill } from '../../packages/core/src/analysis/sandbox/clone-and-fill';
import { cloneDdl } from '../../packages/core/src/analysis/sandbox/clone-ddl';
import type { CloneState } from '../../packages/core/src/analysis/sandbox/sandbox-cache';
import { pgSession } from '../../packages/core/src/analysis/sandbox/pg-session';
import { syntheticRowsScript } from '../../packages/core/src/analysis/sandbox/synthetic-rows';
import { createScratchDatabase, sql } from '../support/scratch-database';
import { snapshotOf } from '../support/schema-fidelity';

/**
 * Partitioned shapes of our own, pagila's among them (payments partitioned by month, a table
 * referencing the partitioned parent), with a few rows in every partition but one. Together with
 * the schema zoo's (range with DEFAULT, LIST sub-partitioned by HASH), cloned and filled on real
 * PostgreSQL: every synthetic row must land in the partition it is meant for.
 */
const SHOP = `
CREATE SCHEMA shop;
CREATE TABLE shop.customer (customer_id serial PRIMARY KEY, name text NOT NULL);
CREATE TABLE shop.payment (payment_id serial, customer_id integer NOT NULL REFERENCES shop.customer, amount numeric(5,2) NOT NULL CHECK (amount >= 0),
  payment_date timestamptz NOT NULL, PRIMARY KEY (payment_date, payment_id)) PARTITION BY RANGE (payment_date);
CREATE TABLE shop.payment_p2022_01 PARTITION OF shop.payment FOR VALUES FROM ('2022-01-01 00:00:00+00') TO ('2022-02-01 00:00:00+00');
CREATE TABLE shop.payment_p2022_02 PARTITION OF shop.payment FOR VALUES FROM ('2022-02-01 00:00:00+00') TO ('2022-03-01 00:00:00+00');
CREATE TABLE shop.payment_p2022_03 PARTITION OF shop.payment FOR VALUES FROM ('2022-03-01 00:00:00+00') TO ('2022-04-01 00:00:00+00');
CREATE TABLE shop.payment_later PARTITION OF shop.payment DEFAULT;
CREATE TABLE shop.refund (refund_id integer PRIMARY KEY, payment_date timestamptz NOT NULL, payment_id integer NOT NULL,
  FOREIGN KEY (payment_date, payment_id) REFERENCES shop.payment);
CREATE TABLE shop.orders (id bigint NOT NULL, region text NOT NULL, placed date NOT NULL, PRIMARY KEY (id, region, placed)) PARTITION BY LIST (region);
CREATE TABLE shop.orders_eu PARTITION OF shop.orders FOR VALUES IN ('de', 'fr') PARTITION BY RANGE (placed);
CREATE TABLE shop.orders_eu_2024 PARTITION OF shop.orders_eu FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE shop.orders_eu_rest PARTITION OF shop.orders_eu DEFAULT;
CREATE TABLE shop.orders_us PARTITION OF shop.orders FOR VALUES IN ('us');
CREATE TABLE shop.orders_rest PARTITION OF shop.orders DEFAULT;
CREATE TABLE shop.ledger (n integer PRIMARY KEY, note text) PARTITION BY RANGE (n);
CREATE TABLE shop.ledger_low PARTITION OF shop.ledger FOR VALUES FROM (MINVALUE) TO (100);
CREATE TABLE shop.ledger_high PARTITION OF shop.ledger FOR VALUES FROM (100) TO (MAXVALUE);
CREATE TABLE shop.session (token text PRIMARY KEY) PARTITION BY HASH (token);
CREATE TABLE shop.session_0 PARTITION OF shop.session FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE shop.session_1 PARTITION OF shop.session FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE shop.session_2 PARTITION OF shop.session FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE TABLE shop.reading (site integer NOT NULL, day integer NOT NULL, v integer, UNIQUE (site, day)) PARTITION BY RANGE (site, day);
CREATE TABLE shop.reading_a PARTITION OF shop.reading FOR VALUES FROM (1, 1) TO (1, 100);
CREATE TABLE shop.reading_b PARTITION OF shop.reading FOR VALUES FROM (1, 100) TO (2, 1);

INSERT INTO shop.customer (name) SELECT 'c' || g FROM generate_series(1, 5) g;
INSERT INTO shop.payment (customer_id, amount, payment_date) VALUES (1, 1, '2022-01-05'), (2, 2, '2022-02-05'), (3, 3, '2023-06-01');
INSERT INTO shop.refund SELECT payment_id, payment_date, payment_id FROM shop.payment;
INSERT INTO shop.orders VALUES (1, 'de', '2024-03-01'), (2, 'fr', '2021-01-01'), (3, 'us', '2024-01-01'), (4, 'jp', '2024-01-01');
INSERT INTO shop.ledger VALUES (1, 'low'), (500, 'high');
INSERT INTO shop.session SELECT 'tok' || g FROM generate_series(1, 30) g;
INSERT INTO shop.reading VALUES (1, 5, 0), (1, 200, 0);
ANALYZE;
`;

/** Leaves that hold rows in the source, and the one left empty there. */
const FILLED_LEAVES = [
  'shop.payment_p2022_01',
  'shop.payment_p2022_02',
  'shop.payment_later',
  'shop.orders_eu_2024',
  'shop.orders_eu_rest',
  'shop.orders_us',
  'shop.orders_rest',
  'shop.ledger_low',
  'shop.ledger_high',
  'shop.session_0',
  'shop.session_1',
  'shop.session_2',
  'shop.reading_a',
  'shop.reading_b',
];
const ZOO_LEAVES = ['public.measurement_2024', 'public.measurement_2025', 'public.measurement_2026', 'public.measurement_other', 'public.events_a1'];

/** Rows per leaf of each partitioned root, counted where PostgreSQL routed them. */
async function leafCounts(c: pg.Client, roots: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const root of roots) {
    const { rows } = await c.query<{ leaf: string; n: string }>(
      `SELECT n.nspname || '.' || c.relname AS leaf, count(*) AS n FROM ${root} t JOIN pg_class c ON c.oid = t.tableoid JOIN pg_namespace n ON n.oid = c.relnamespace GROUP BY 1`,
    );
    for (const r of rows) out.set(r.leaf, Number(r.n));
  }
  return out;
}

const ROOTS = ['shop.payment', 'shop.orders', 'shop.ledger', 'shop.session', 'shop.reading', 'public.measurement', 'public.events'];

describe('synthetic rows of partitioned tables, on real PostgreSQL', () => {
  const dbs: Array<{ drop(): Promise<void> }> = [];
  let snapshot: SchemaSnapshot;
  let clone: pg.Client;
  let state: CloneState;

  beforeAll(async () => {
    const source = await createScratchDatabase('part_src');
    const target = await createScratchDatabase('part_clone');
    dbs.push(source, target);
    await sql(source.url, await readFile(new URL('../fixtures/schema-zoo.sql', import.meta.url), 'utf8'));
    await sql(source.url, SHOP);
    snapshot = await snapshotOf(source.url);
    // The zoo's tables are empty in the source: count them as holding rows, so its partitions are filled too.
    snapshot = { ...snapshot, tables: snapshot.tables.map((t) => (t.schema === 'shop' ? t : { ...t, heap_bytes: 8192 })) };
    clone = new pg.Client({ connectionString: target.url });
    await clone.connect();
    state = await cloneAndFill(pgSession(clone), snapshot, cloneDdl(snapshot), 3);
  }, 120_000);
  afterAll(async () => {
    await clone?.end();
    for (const d of dbs) await d.drop().catch(() => undefined);
  });

  it('fills every partition that holds rows in the target, inside its bounds, and leaves an empty one empty', async () => {
    expect(state.rows.failures.filter((f) => [...FILLED_LEAVES, ...ZOO_LEAVES, 'shop.refund'].includes(f.table))).toEqual([]);
    const counts = await leafCounts(clone, ROOTS);
    for (const leaf of [...FILLED_LEAVES, ...ZOO_LEAVES]) expect(counts.get(leaf), leaf).toBe(3);
    expect(counts.get('shop.payment_p2022_03') ?? 0).toBe(0);
    // The zoo's events are hashed on a foreign key to "order": a leaf takes only parent keys that
    // hash to it, and none of the 3 synthetic orders hashes to events_a0. Named, not hidden.
    expect(counts.get('public.events_a0') ?? 0).toBe(0);
    expect(state.rows.failures.find((f) => f.table === 'public.events_a0')?.error).toMatch(/null value in column "id"/);
    // Sub-partitions satisfy both levels; a default takes what its siblings do not.
    const eu = await clone.query<{ region: string; placed: string }>(`SELECT region, placed::text FROM shop.orders_eu_rest`);
    for (const r of eu.rows) expect(['de', 'fr']).toContain(r.region);
    for (const r of eu.rows) expect(r.placed < '2024-01-01' || r.placed >= '2025-01-01').toBe(true);
    // A table referencing the partitioned parent points at rows that are there.
    expect((await clone.query(`SELECT 1 FROM shop.refund r JOIN shop.payment p USING (payment_date, payment_id)`)).rowCount).toBe(3);
  });

  it('gives the same placement from the one-script fast path', async () => {
    const shop = new Set(snapshot.tables.filter((t) => t.schema === 'shop').map((t) => `${t.schema}.${t.name}`));
    const script = syntheticRowsScript(snapshot, 3, shop);
    await clone.query('BEGIN');
    try {
      await clone.query('TRUNCATE shop.customer, shop.payment, shop.refund, shop.orders, shop.ledger, shop.session, shop.reading');
      await clone.query(script.sql);
      const counts = await leafCounts(
        clone,
        ROOTS.filter((r) => r.startsWith('shop.')),
      );
      for (const leaf of FILLED_LEAVES) expect(counts.get(leaf), leaf).toBe(3);
      expect(counts.get('shop.payment_p2022_03') ?? 0).toBe(0);
    } finally {
      await clone.query('ROLLBACK');
    }
  });
});
