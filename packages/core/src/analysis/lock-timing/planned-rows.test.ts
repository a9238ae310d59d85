import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { analyzeStatements } from '../analyze-statements';
import { parseStatements } from '../parse-statements';
import { buildSchemaIndex } from '../schema-index';
import { buildSnapshot } from '../snapshot-builder';
import { liveFeatures } from './live-features';
import { filteredReadCost, plannedRows } from './planned-rows';
import { dirtiedPages } from './timing-class';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('pr');
  // Four qualities cycling, so a quarter of the rows per quality; the unit is another cycle.
  await sql(
    db.url,
    `CREATE TABLE reading (id bigint PRIMARY KEY, quality int NOT NULL, unit int NOT NULL, v float8 NOT NULL);
     INSERT INTO reading SELECT g, g % 4, (g * 7) % 3, g FROM generate_series(1, 40000) g;
     CREATE INDEX ON reading (quality);
     ALTER TABLE reading ADD COLUMN batch int; UPDATE reading SET batch = id / 100; CREATE INDEX ON reading (batch);`,
  );
  await sql(db.url, 'VACUUM FULL reading');
  await sql(db.url, 'VACUUM ANALYZE reading');
});
afterAll(() => db.drop());

async function plan(query: string) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query('BEGIN READ ONLY');
    await c.query('SET LOCAL enable_seqscan = off');
    return await plannedRows(c, query);
  } finally {
    await c.query('ROLLBACK');
    await c.end();
  }
}

describe('plannedRows', () => {
  it('takes an index range whose filter drops most of what it reads as a scan, and one that keeps its rows as the index that finds them', async () => {
    // The index reads a quarter of the table and the filter keeps a third of that: priced as a scan.
    const filtered = await plan('SELECT reading.ctid FROM reading WHERE quality = 2 AND unit = 1');
    expect(filtered).toMatchObject({ byScan: true, index: null, filteredRead: { index: 'reading_quality_idx' } });
    expect(filtered!.filteredRead!.rows).toBeGreaterThan(8000);
    const kept = await plan('SELECT reading.ctid FROM reading WHERE quality = 2');
    expect(kept).toMatchObject({ byScan: false, index: 'reading_quality_idx', filteredRead: null });
  });
});

describe('filteredReadCost', () => {
  // 12,400 pages of 97 rows; the index reads 62,000 of them (set V's key range).
  const table = { heapBytes: 12_400 * 8192, rows: 1_200_000, readRows: 62_000 };

  it('reads a run of pages where the heap is ordered by the key: the rows / rows per page', () => {
    expect(filteredReadCost({ ...table, together: true, blockOrder: true })).toBeCloseTo(62_000 / 96.77 + 620, 0);
  });

  it('reads each page the rows land on once in a bitmap scan, and a page a row in a plain index scan, where the heap is not ordered by it', () => {
    const bitmap = filteredReadCost({ ...table, together: false, blockOrder: true });
    expect(bitmap).toBeCloseTo(12_400 * (1 - Math.exp(-62_000 / 12_400)) + 620, 0);
    expect(filteredReadCost({ ...table, together: false, blockOrder: false })).toBeCloseTo(62_000 + 620, 0);
    expect(bitmap).toBeLessThan(12_400 + 620);
  });
});

describe('a DML statement read through a filtered index', () => {
  it('costs the pages its rows lie on: a run where the heap is ordered by the key, every page the rows land on where not', async () => {
    const scanCost = async (statement: string) => {
      const parsed = await parseStatements(statement);
      const facts = analyzeStatements(parsed, buildSchemaIndex(buildSnapshot([])))[0]!.facts;
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        await c.query('BEGIN READ ONLY');
        // A bitmap scan: a plain index scan's rows are counted after its filter (no read to tell apart).
        await c.query('SET LOCAL enable_seqscan = off');
        await c.query('SET LOCAL enable_indexscan = off');
        // The service's own plan of the rows (`selectOf` in live-features.ts), under the same settings.
        const planner = (await plannedRows(c, `SELECT reading.ctid FROM reading WHERE ${statement.split(' WHERE ')[1]}`))!.cost;
        const features = (await liveFeatures(c, parsed[0]!, facts))!.features;
        return { planner, priced: features.scanCost, touchedPages: features.touchedPages };
      } finally {
        await c.query('ROLLBACK');
        await c.end();
      }
    };
    const pages = (await sql<{ n: number }>(db.url, "SELECT relpages AS n FROM pg_class WHERE relname = 'reading'"))[0]!.n;
    // 10,000 rows of a batch range, in 10,000 / (40,000 / pages) pages, a third of them kept.
    const ordered = await scanCost('DELETE FROM reading WHERE batch >= 300 AND unit = 1');
    expect(ordered.priced).toBeGreaterThan(((10_000 * pages) / 40_000) * 0.8 + 80);
    expect(ordered.priced).toBeLessThan(((10_000 * pages) / 40_000) * 1.2 + 120);
    expect(ordered.priced).toBeLessThan(ordered.planner / 3);
    // The WHERE's two columns are taken as independent: its rows are counted, with their pages.
    const held = await sql<{ n: number }>(db.url, 'SELECT count(DISTINCT (ctid::text::point)[0])::int AS n FROM reading WHERE batch >= 300 AND unit = 1');
    expect(ordered.touchedPages).toBe(held[0]!.n);
    // A WHERE the planner trusts is not counted, but a page sample still finds where its rows lie
    // (here the whole table: it is smaller than the sample).
    const trusted = await scanCost('DELETE FROM reading WHERE batch >= 350');
    const range = await sql<{ n: number }>(db.url, 'SELECT count(DISTINCT (ctid::text::point)[0])::int AS n FROM reading WHERE batch >= 350');
    expect(trusted.touchedPages).toBeCloseTo(range[0]!.n, 0);
    // A quality's 10,000 rows land on every page.
    const scattered = await scanCost('DELETE FROM reading WHERE quality = 2 AND unit = 1');
    expect(scattered.priced).toBeGreaterThan(pages * 0.9);
  });
});

describe('pages counted on the target', () => {
  const table = { heapBytes: 12_400 * 8192, rows: 1_200_000, readRows: 62_000, together: false, blockOrder: true };

  it('read a filtered index range as the run of pages its kept rows were counted on, where they lie far closer than at random', () => {
    // 12,000 kept rows on 757 pages, where at random they would cover 7,900: the range is read as a run.
    expect(filteredReadCost({ ...table, touchedPages: 757, touchedRows: 12_000 })).toBeCloseTo(757 + 620, 0);
    // On 7,000 pages they are spread: the key's order decides, as without a count.
    expect(filteredReadCost({ ...table, touchedPages: 7000, touchedRows: 12_000 })).toBeCloseTo(filteredReadCost(table), 5);
  });

  it('stand for the pages a DML statement dirties', () => {
    const f = { heapBytes: 12_400 * 8192, rows: 1_200_000, touchedRows: 12_000, foundByScan: true, rowsClustered: true };
    expect(dirtiedPages(f)).toBeGreaterThan(7000);
    expect(dirtiedPages({ ...f, touchedPages: 757 })).toBe(757);
  });
});
