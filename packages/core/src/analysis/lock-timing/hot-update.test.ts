import { describe, expect, it } from 'vitest';
import { parseStatements } from '../parse-statements';
import { assignedColumns, averageRowBytes, expressionNames, fillfactorRoom, freeBytesPerPage, nonHotShare } from './hot-update';

describe('HOT updates', () => {
  it('takes every changed row into the indexes when an indexed column changes, room or not', () => {
    expect(nonHotShare({ indexedColumnChanged: true, roomBytes: 4000, rowBytes: 100, changedPerPage: 1 })).toBe(1);
  });

  it('keeps a sparse update of an unindexed column on its page when there is room', () => {
    expect(nonHotShare({ indexedColumnChanged: false, roomBytes: 1200, rowBytes: 100, changedPerPage: 2 })).toBe(0);
  });

  it('sends every version of an update to other pages once its rows need more than the room: the displaced ones fill the pages ahead', () => {
    // Seventy rows changed per page, room for twelve; five changed, room for three and a half (set U-B's case).
    expect(nonHotShare({ indexedColumnChanged: false, roomBytes: 1200, rowBytes: 100, changedPerPage: 70 })).toBe(1);
    expect(nonHotShare({ indexedColumnChanged: false, roomBytes: 553, rowBytes: 156, changedPerPage: 4.85 })).toBe(1);
  });

  it('keeps part of an update on its pages when the room is between what its rows need and twice that', () => {
    // Room for six versions, four changed: half HOT.
    expect(nonHotShare({ indexedColumnChanged: false, roomBytes: 600, rowBytes: 100, changedPerPage: 4 })).toBeCloseTo(0.5, 5);
  });

  it('sizes rows from pg_stats as the heap stores them: header, null bitmap, alignment, line pointer', () => {
    // bigint, int, text of 10 bytes: 24 + 8 + 4 + 10, varying length so 3.5 bytes of average padding, + 4.
    expect(
      averageRowBytes([
        { len: 8, align: 'd', avgWidth: 8, nullFrac: 0 },
        { len: 4, align: 'i', avgWidth: 4, nullFrac: 0 },
        { len: -1, align: 'i', avgWidth: 10, nullFrac: 0 },
      ]),
    ).toBeCloseTo(53.5, 5);
    // Fixed width only: the tuple aligned to 8 exactly; a nullable column adds the bitmap (and here no byte more).
    expect(
      averageRowBytes([
        { len: 8, align: 'd', avgWidth: 8, nullFrac: 0 },
        { len: 4, align: 'i', avgWidth: 4, nullFrac: 0.5 },
      ]),
    ).toBe(24 + 16 + 4);
    // A varlena without statistics: no figure.
    expect(averageRowBytes([{ len: -1, align: 'i', avgWidth: null, nullFrac: 0 }])).toBeNull();
  });

  it('reads free space from what the rows leave of each page, and falls back on the fillfactor', () => {
    // 100 rows of 80 bytes per page leave 168 bytes.
    expect(freeBytesPerPage(10_000, 100, 80)).toBe(168);
    expect(freeBytesPerPage(10_000, 100, 90)).toBe(0);
    expect(fillfactorRoom(85, 100)).toBeCloseTo(0.15 * 8192 + 50, 5);
  });

  it('reads the columns an UPDATE sets, a multi-column SET included', async () => {
    const [u] = await parseStatements('UPDATE t SET a = 1, (b, "C") = (2, 3) WHERE id = 1');
    expect([...assignedColumns(u!)].sort()).toEqual(['C', 'a', 'b']);
    const [d] = await parseStatements('DELETE FROM t WHERE id = 1');
    expect(assignedColumns(d!).size).toBe(0);
  });

  it('reads the names an index expression or predicate uses, not the words of its literals', () => {
    const names = expressionNames(`lower((email)::text) WHERE ((status <> 'done archived'::text) AND ("Kind" IS NOT NULL))`);
    expect(names.has('email')).toBe(true);
    expect(names.has('status')).toBe(true);
    expect(names.has('Kind')).toBe(true);
    expect(names.has('archived')).toBe(false);
  });
});
