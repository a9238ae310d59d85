import { describe, expect, it } from 'vitest';
import { type SampledPage, simulatedHotShare } from './hot-simulation';
import { spreadChanges } from './page-room';

/** `count` pages with `room` free bytes each and `changed` rows of `bytes` to update on each. */
const pages = (count: number, room: number, changed: number, bytes = 100): SampledPage[] =>
  Array.from({ length: count }, () => ({ room, changed: new Array<number>(changed).fill(bytes) }));

const play = (p: SampledPage[], o: Partial<{ reserve: number; freeSpaceMap: boolean; blockOrder: boolean }> = {}) =>
  simulatedHotShare({ pages: p, reserve: 0, freeSpaceMap: true, blockOrder: true, ...o });

describe('HOT updates played out on sampled pages', () => {
  it('keeps every version on its page where the room holds the changed rows', () => {
    expect(play(pages(200, 1000, 5))).toBe(1);
    expect(play([])).toBe(1);
  });

  it('collapses the HOT share where the rows need a little more than the room and the displaced versions may take the pages ahead', () => {
    // Room for 9 of 10 changed rows a page: the one displaced per page fills a page ahead, whose own ten then move too.
    expect(play(pages(400, 900, 10))).toBeLessThan(0.1);
    // The same in no order (rows found through an index on a key the heap is not ordered by) collapses less.
    expect(play(pages(400, 900, 10), { blockOrder: false })).toBeGreaterThan(play(pages(400, 900, 10)));
  });

  it("keeps a page's share where the fillfactor's reserve is what its room is: displaced versions may not take it", () => {
    // Room for 9 of 10 a page, all of it the reserve: 90 % stay.
    expect(play(pages(400, 900, 10), { reserve: 900 })).toBeCloseTo(0.9, 2);
  });

  it('sends displaced versions to new pages at the end when no VACUUM has told the free space map of the room', () => {
    expect(play(pages(400, 900, 10), { freeSpaceMap: false })).toBeCloseTo(0.9, 2);
  });

  it('lets pages with room to spare take the displaced versions before the pages ahead lose theirs', () => {
    // Every fifth page emptied by a vacuumed DELETE: room for 81 rows there.
    const p = pages(400, 900, 10).map((page, i) => (i % 5 === 4 ? { room: 8100, changed: [] } : page));
    expect(play(p)).toBeCloseTo(0.9, 2);
  });
});

describe('changes laid on sampled pages when the WHERE is not evaluated there', () => {
  const sampled = Array.from({ length: 10 }, () => ({ room: 500, rows: 40, changed: [] as number[] }));

  it('spreads them evenly, each the size of its page’s average row', () => {
    const spread = spreadChanges(sampled, 0.1, false);
    expect(spread.map((p) => p.changed.length)).toEqual(new Array(10).fill(4));
    expect(spread[0]!.changed[0]).toBeCloseTo((8192 - 24 - 500) / 40, 5);
  });

  it('fills whole pages from the first where the rows sit together', () => {
    expect(spreadChanges(sampled, 0.15, true).map((p) => p.changed.length)).toEqual([40, 20, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
