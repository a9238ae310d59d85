import { describe, expect, it } from 'vitest';
import { columnCost, GIST_KEY_COSTS, indexKeyCost, type KeyColumnInfo, SPGIST_KEY_COST } from './index-key-cost';

const int8: KeyColumnInfo = { typname: 'int8', typlen: 8, category: 'N', collation: null, avgWidth: 8 };
const text = (collation: KeyColumnInfo['collation'], avgWidth = 38): KeyColumnInfo => ({ typname: 'text', typlen: -1, category: 'S', collation, avgWidth });
const jsonb = (avgWidth: number): KeyColumnInfo => ({ typname: 'jsonb', typlen: -1, category: 'U', collation: null, avgWidth });
const btree = (...columns: KeyColumnInfo[]) => indexKeyCost({ method: 'btree', opclass: null, columns });

describe('index build cost by what is indexed', () => {
  it('prices a key by its type, collation and width relative to a bigint', () => {
    expect(btree(int8).cost).toBe(1);
    expect(btree({ typname: 'uuid', typlen: 16, category: 'U', collation: null, avgWidth: 16 }).cost).toBeGreaterThan(1);
    expect(btree(text('c')).cost).toBeLessThan(btree(text('libc')).cost);
    expect(btree(text('libc')).cost).toBeLessThan(btree(text('icu')).cost);
    expect(btree(text('libc', 200)).cost).toBeGreaterThan(btree(text('libc', 20)).cost);
    expect(btree(jsonb(200)).cost).toBeGreaterThan(btree(jsonb(40)).cost);
    expect(btree(text('icu')).label).toBe('text (icu collation, 38 B)');
    expect(columnCost({ typname: '_int4', typlen: -1, category: 'A', collation: null, avgWidth: 40 }).label).toBe('int4[] (40 B)');
  });

  it('adds little for later keys when the first is nearly unique, more when it repeats', () => {
    const unique = { ...int8, distinctShare: 1 };
    const repeating = { ...text('libc', 8), distinctShare: 0.00001 };
    expect(btree(unique, text('libc')).cost).toBeCloseTo(1.2, 5);
    expect(btree(repeating, text('libc')).cost).toBeGreaterThan(btree(repeating).cost + 3);
    expect(btree(unique, text('libc')).label).toBe('multi-column (int8, text (libc collation, 38 B))');
  });

  it('counts GIN entries per row by the value width and operator class, cheaper for fixed-width array elements', () => {
    const gin = (opclass: string | null, c: KeyColumnInfo) => indexKeyCost({ method: 'gin', opclass, columns: [c] });
    expect(gin(null, jsonb(100)).ginEntries).toBe(10);
    expect(gin('jsonb_path_ops', jsonb(100)).ginEntries).toBe(5);
    const ints = gin(null, { typname: '_int4', typlen: -1, category: 'A', collation: null, avgWidth: 40, elemLen: 4 });
    const texts = gin(null, { typname: '_text', typlen: -1, category: 'A', collation: 'libc', avgWidth: 44, elemLen: -1 });
    expect(ints.ginEntries).toBeCloseTo(0.8, 5);
    expect(texts.ginEntries).toBe(2);
    expect(ints.label).toBe('GIN on int4[] (40 B)');
  });

  it('marks a cost resting on a default as weak: an expression key, a column never analyzed, a container compared by its contents', () => {
    expect(btree(jsonb(60)).weak).toBe(true);
    expect(indexKeyCost({ method: 'gin', opclass: null, columns: [jsonb(60)] }).weak).toBe(false);
    expect(btree({ typname: null, typlen: -1, category: 'U', collation: null, avgWidth: null }).weak).toBe(true);
    expect(btree(text('libc', undefined as unknown as number), int8).weak).toBe(false);
    expect(btree({ ...text('libc'), avgWidth: null }).weak).toBe(true);
    expect(btree(int8).weak).toBe(false);
    expect(indexKeyCost({ method: 'brin', opclass: null, columns: [int8] }).label).toBe('BRIN');
  });
  it('counts trigrams as integer keys: a pg_trgm GIN entry costs a fifth of a text one', () => {
    const gin = (opclass: string | null) => indexKeyCost({ method: 'gin', opclass, columns: [text('libc', 20)] }).ginEntries;
    expect(gin('gin_trgm_ops')).toBeCloseTo(20 * 1.3 * 0.2);
    expect(gin(null)).toBe(20);
  });
  it("prices a GiST key by its type's tree functions, not by its btree comparison, and an SP-GiST key alike for every type", () => {
    const gist = (c: KeyColumnInfo) => indexKeyCost({ method: 'gist', opclass: null, columns: [c] }).cost;
    const range: KeyColumnInfo = { typname: 'tstzrange', typlen: -1, category: 'R', collation: null, avgWidth: 22 };
    const inet: KeyColumnInfo = { typname: 'inet', typlen: -1, category: 'I', collation: null, avgWidth: 7 };
    const point: KeyColumnInfo = { typname: 'point', typlen: 16, category: 'G', collation: null, avgWidth: 16 };
    expect(gist(range)).toBe(GIST_KEY_COSTS.range);
    expect(gist(inet)).toBe(GIST_KEY_COSTS.inet);
    expect(gist(point)).toBe(GIST_KEY_COSTS.point);
    expect(gist(range)).toBeGreaterThan(gist(inet) * 3);
    expect(gist(inet)).toBeGreaterThan(gist(point) * 3);
    // Another type keeps its btree comparison cost.
    expect(gist(text('c'))).toBe(columnCost(text('c')).cost);
    for (const c of [range, inet, point, text('c')]) expect(indexKeyCost({ method: 'spgist', opclass: null, columns: [c] }).cost).toBe(SPGIST_KEY_COST);
  });

  it('prices citext as a text lower-cased at every comparison', () => {
    const citext: KeyColumnInfo = { ...text('libc', 20), typname: 'citext' };
    expect(btree(citext).cost).toBeCloseTo(5 * btree(text('libc', 20)).cost);
  });
});
