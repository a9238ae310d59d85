import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { plannedRows } from './planned-rows';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('pr');
  // Four qualities cycling, so a quarter of the rows per quality; the unit is another cycle.
  await sql(
    db.url,
    `CREATE TABLE reading (id bigint PRIMARY KEY, quality int NOT NULL, unit int NOT NULL, v float8 NOT NULL);
     INSERT INTO reading SELECT g, g % 4, (g * 7) % 3, g FROM generate_series(1, 40000) g;
     CREATE INDEX ON reading (quality);`,
  );
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
    const filtered = await plan('SELECT 1 FROM reading WHERE quality = 2 AND unit = 1');
    expect(filtered).toMatchObject({ byScan: true, index: null });
    const kept = await plan('SELECT 1 FROM reading WHERE quality = 2');
    expect(kept).toMatchObject({ byScan: false, index: 'reading_quality_idx' });
  });
});
