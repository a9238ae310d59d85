import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, sql } from '../../../../../test/support/scratch-database';
import { liveTable } from './live-table';
import { indexKeyOrder, rowsTogether } from './row-order';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
beforeAll(async () => {
  db = await createScratchDatabase('roworder');
  await sql(
    db.url,
    `CREATE TABLE booking (id bigint PRIMARY KEY, status text NOT NULL);
     INSERT INTO booking SELECT g, (ARRAY['booked','done','cancelled','disputed'])[1 + g % 4] FROM generate_series(1, 20000) g;
     CREATE INDEX booking_status ON booking (status);
     ANALYZE booking`,
  );
});
afterAll(() => db.drop());

describe('whether the rows an index finds lie together in the heap', () => {
  it('takes a key the heap loosely follows as ordered, unless it has few values, whose rows lie together only in a sorted heap', () => {
    // A serial id after updates moved a tenth of the rows: its ranges still sit together.
    expect(rowsTogether({ corr: 0.45, distinct: 1e6 }, 1e6)).toBe(true);
    expect(rowsTogether({ corr: 0.1, distinct: 1e6 }, 1e6)).toBe(false);
    // Four statuses cycling through the heap: each has a row on nearly every page.
    expect(rowsTogether({ corr: 0.24, distinct: 4 }, 1e6)).toBe(false);
    expect(rowsTogether({ corr: 0.95, distinct: 4 }, 1e6)).toBe(true);
    // Unknown order counts as ordered, as unknown distinct values count as many.
    expect(rowsTogether(null, 1e6)).toBe(true);
    expect(rowsTogether({ corr: 0.3, distinct: null }, 1e6)).toBe(true);
  });
});

describe("an index key's order in the heap, read from the live statistics", () => {
  it("reads the first key's correlation and its distinct values as a count", async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const t = (await liveTable(c, 'booking'))!;
      const byId = await indexKeyOrder(c, t, 'booking_pkey');
      expect(byId!.corr).toBeGreaterThan(0.99);
      expect(byId!.distinct).toBeGreaterThan(19_000);
      const byStatus = await indexKeyOrder(c, t, 'booking_status');
      expect(byStatus!.distinct).toBe(4);
      expect(rowsTogether(byStatus, t.rows)).toBe(false);
      expect(await indexKeyOrder(c, t, 'no_such_index')).toBeNull();
    } finally {
      await c.end();
    }
  });
});
