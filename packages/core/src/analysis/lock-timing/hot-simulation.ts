/** A heap page as a page sample saw it: its free bytes, and the sizes of the rows an UPDATE changes on it. */
export interface SampledPage {
  /** Bytes free for new row versions (page less header, rows and line pointers). */
  room: number;
  /** Bytes each changed row's new version takes (aligned, line pointer included), in the page's order. */
  changed: number[];
}

export interface HotSimulationInput {
  /** The sampled pages, in block order. */
  pages: SampledPage[];
  /** Bytes the fillfactor keeps free on a page for updates of its own rows (8192 x (100 - fillfactor) %). */
  reserve: number;
  /**
   * Whether the free space map knows the pages' room (a VACUUM recorded it). Before one, it holds
   * only what each page had left when an INSERT filled it, so a version that does not fit on its
   * page goes to pages added at the end, never into the room of pages ahead.
   */
  freeSpaceMap: boolean;
  /** The UPDATE reaches rows in block order (a scan, or an index on a key the heap is ordered by); otherwise in an order of their own. */
  blockOrder: boolean;
}

/**
 * Share of an UPDATE's changed rows that PostgreSQL updates HOT (on their own page), played out
 * on sampled pages as `heap_update` does it. A new version stays on its page when it fits in the
 * page's free bytes (the fillfactor's reserve included); otherwise it goes where the free space
 * map points (next fit from where the last one went: `RelationGetBufferForTuple`), to a page
 * whose free bytes hold it and still keep the reserve. When those are pages the UPDATE has not
 * reached yet, their room is gone before their own rows change: where pages hold less room than
 * their changed rows need, the HOT share collapses (set U-B: 2.6 % HOT, room for three of 4.85
 * changed rows a page); where the fillfactor keeps a reserve, the displaced versions cannot take
 * it and the pages ahead keep room for their own (set V-B at fillfactor 90: 58 %).
 */
export function simulatedHotShare(input: HotSimulationInput): number {
  const room = input.pages.map((p) => p.room);
  const events: Array<{ page: number; bytes: number }> = [];
  input.pages.forEach((p, page) => p.changed.forEach((bytes) => events.push({ page, bytes })));
  if (events.length === 0) return 1;
  if (!input.blockOrder) shuffle(events);
  const tree = input.freeSpaceMap ? new MaxTree(room) : null;
  let hot = 0;
  let next = 0;
  for (const e of events) {
    if (room[e.page]! >= e.bytes) {
      room[e.page]! -= e.bytes;
      tree?.set(e.page, room[e.page]!);
      hot += 1;
      continue;
    }
    // The new version lands on another page (or on pages added at the end, which no sampled
    // page's rows compete for).
    const target = tree ? (tree.firstAtLeast(next, e.bytes + input.reserve) ?? tree.firstAtLeast(0, e.bytes + input.reserve)) : null;
    if (target === null) continue;
    room[target]! -= e.bytes;
    tree!.set(target, room[target]!);
    next = target;
  }
  return hot / events.length;
}

/** A deterministic shuffle (same pages, same answer): rows reached through an index on a key the heap is not ordered by. */
function shuffle<T>(items: T[]): void {
  let seed = 0x9e3779b9;
  for (let i = items.length - 1; i > 0; i--) {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = seed % (i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

/** Largest value over ranges of pages, for the first page at or after a position whose room holds a version (as the free space map's tree finds it). */
class MaxTree {
  private readonly size: number;
  private readonly max: number[];
  constructor(values: readonly number[]) {
    let size = 1;
    while (size < values.length) size *= 2;
    this.size = size;
    this.max = new Array<number>(2 * size).fill(-Infinity);
    values.forEach((v, i) => (this.max[size + i] = v));
    for (let i = size - 1; i > 0; i--) this.max[i] = Math.max(this.max[2 * i]!, this.max[2 * i + 1]!);
  }
  set(i: number, v: number): void {
    let n = this.size + i;
    this.max[n] = v;
    for (n >>= 1; n > 0; n >>= 1) this.max[n] = Math.max(this.max[2 * n]!, this.max[2 * n + 1]!);
  }
  /** The first index >= from whose value is at least `need`, or null. */
  firstAtLeast(from: number, need: number): number | null {
    return this.search(1, 0, this.size, from, need);
  }
  private search(node: number, lo: number, hi: number, from: number, need: number): number | null {
    if (hi <= from || this.max[node]! < need) return null;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    return this.search(2 * node, lo, mid, from, need) ?? this.search(2 * node + 1, mid, hi, from, need);
  }
}
