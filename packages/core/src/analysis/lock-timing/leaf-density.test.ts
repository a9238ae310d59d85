import { describe, expect, it } from 'vitest';
import { type BtreeShape, leafDensity, overflowShare } from './leaf-density';

/** A bigint key: 8 bytes, aligned on 8, unique. */
const bigint = { len: 8, align: 'd', width: 8, distinct: -1 };

const shape = (over: Partial<BtreeShape>): BtreeShape => ({
  columns: ['id'],
  expressions: null,
  pages: 2_000,
  entries: 600_000,
  unique: true,
  keys: [bigint],
  ...over,
});

describe('leafDensity', () => {
  it('reads a unique bigint btree of 600k entries on 1,472 leaves as 90 % full, and on twice the leaves as 45 %', () => {
    // An entry: 8-byte header + 8-byte key, aligned to 16, and a 4-byte line pointer: 20 bytes.
    expect(leafDensity(shape({ pages: 1_636 }))).toBeCloseTo(0.9, 2);
    expect(leafDensity(shape({ pages: 3_271 }))).toBeCloseTo(0.45, 2);
  });

  it('counts a repeated key once per posting list, with 6 bytes per row', () => {
    // 600 distinct values, 1,000 rows each (capped at 400 per posting list): about 6.05 bytes a row.
    const repeated = shape({ unique: false, keys: [{ len: 4, align: 'i', width: 4, distinct: 600 }], pages: 496 });
    expect(leafDensity(repeated)).toBeCloseTo(0.9, 1);
  });

  it('multiplies the distinct counts of a composite key, and gives up on a key without a width or a figure past full', () => {
    const composite = shape({ unique: false, keys: [bigint, { len: 4, align: 'i', width: 4, distinct: 6 }], pages: 2_000 });
    expect(leafDensity(composite)).toBeGreaterThan(0.5);
    expect(leafDensity(shape({ keys: [{ len: -1, align: 'i', width: null, distinct: null }] }))).toBeNull();
    expect(leafDensity(shape({ pages: 600 }))).toBeNull();
  });
});

describe('overflowShare', () => {
  const fresh = { pages: 1_636, entries: 600_000 };
  it('leaves a small UPDATE in the room a freshly built index keeps, and sends most of a large one into full leaves', () => {
    // A fresh leaf (0.9) takes about 11 % of its entries again.
    expect(overflowShare(fresh, 0.9, 30_000)).toBe(0);
    expect(overflowShare(fresh, 0.9, 150_000)).toBeCloseTo(1 - 0.111 / 0.25, 2);
    expect(overflowShare(fresh, 0.45, 150_000)).toBe(0);
    expect(overflowShare(fresh, null, 150_000)).toBe(0);
  });
});
