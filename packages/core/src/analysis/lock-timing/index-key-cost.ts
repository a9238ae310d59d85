/** Index access methods whose builds are timed apart: they do different work per row. */
export type IndexMethod = 'btree' | 'hash' | 'gin' | 'gist' | 'spgist' | 'brin';

/** One key of an index as the catalog (or the snapshot) describes it. */
export interface KeyColumnInfo {
  /** `pg_type.typname` of the key (`int8`, `text`, `jsonb`, `_int4` for an int[]); null for an expression. */
  typname: string | null;
  /** `pg_type.typlen`: positive for fixed-width types. */
  typlen: number;
  /** `pg_type.typcategory` (`A` array, `S` string, `N` numeric, `U` user/other...). */
  category: string;
  /** How the key's text compares: bytewise (`C`, `POSIX`), through libc's strcoll, through ICU; null for types without a collation. */
  collation: 'c' | 'libc' | 'icu' | null;
  /** `pg_stats.avg_width` in bytes, or null when the column was never analyzed. */
  avgWidth: number | null;
  /** `typlen` of an array's element type (-1 varlena), when the key is an array. */
  elemLen?: number;
  /** Share of the table's rows with distinct values (`pg_stats.n_distinct` as a share; null when unknown). */
  distinctShare?: number | null;
  /** GIN entries a row, counted on a sample of the column (`sample-gin-entries.ts`): stands for the width-based count. */
  sampledGinEntries?: number;
}

/** What an index build sorts or inserts, for the cost model. */
export interface IndexKey {
  method: IndexMethod;
  /** Key columns in order; an expression key has `typname` null. */
  columns: KeyColumnInfo[];
  /** Operator class named in the statement (`jsonb_path_ops`), or null for the default. */
  opclass: string | null;
}

/** The cost of an index build's keys relative to a bigint btree, and why. */
export interface KeyCost {
  /** Per comparison (btree, GiST) or per row (hash): 1 for a fixed-width scalar. */
  cost: number;
  /** GIN: index entries per row, each weighted by its comparison cost (0 for other methods). */
  ginEntries: number;
  /** The key class in words, for the finding. */
  label: string;
  /** The cost rests on a default (an expression whose type dbops does not know, a column never analyzed, a jsonb or array btree key whose comparisons depend on its contents). */
  weak: boolean;
}

const width = (c: KeyColumnInfo, fallback: number): number => c.avgWidth ?? (c.typlen > 0 ? c.typlen : fallback);

/**
 * The comparison cost of one btree key relative to bigint's, measured on PostgreSQL 15 (each key
 * class built on the same rows, see docs/benchmarks.md): uuid 1.1-1.2x, numeric 1-1.5x, text
 * 2-3x under the C or C.UTF-8 collation and 1.3-1.5x that under ICU (wider strings compare
 * longer). Containers vary with their contents: a jsonb comparison walks both values pair by
 * pair until one differs (2x a bigint when the first key's value is unique, 7x with two keys
 * and a repeating first value), an array element by element (3-4.5x): their cost is the
 * geometric middle of what was measured, and marked weak so the range widens. Texts of the C
 * collation use abbreviated keys, but values sharing a prefix (codes, URLs) defeat them, so the
 * width still counts.
 */
export function columnCost(c: KeyColumnInfo): { cost: number; label: string } {
  if (c.typname === null) return { cost: 2, label: 'expression' };
  const w = width(c, 32);
  if (c.category === 'A') return { cost: 2.5 + w / 30, label: `${c.typname.replace(/^_/, '')}[] (${Math.round(w)} B)` };
  if (c.typname === 'uuid') return { cost: 1.2, label: 'uuid' };
  if (c.typname === 'numeric') return { cost: 1.5, label: 'numeric' };
  if (c.typname === 'jsonb' || c.typname === 'json') return { cost: 2.8 + w / 60, label: `${c.typname} (${Math.round(w)} B)` };
  if (c.typlen > 0) return { cost: c.typlen > 8 ? 1.2 : 1, label: c.typname };
  if (c.collation) {
    const base = c.collation === 'icu' ? 3.2 : c.collation === 'libc' ? 2.3 : 2;
    // citext lower-cases both values (a copy each) before every comparison: 4.9-5.4x the same
    // text's build (300k e-mail addresses under C.UTF-8: 1,693-1,847 ms against 340-384 ms).
    const folded = c.typname === 'citext' ? 5 : 1;
    return { cost: folded * (base + w / 40), label: `${c.typname} (${c.collation === 'c' ? 'C' : c.collation} collation, ${Math.round(w)} B)` };
  }
  return { cost: 1.5 + w / 40, label: `${c.typname} (${Math.round(w)} B)` };
}

/**
 * Index entries a GIN build makes per row, weighted by what inserting one costs: a jsonb value
 * gives about one entry per 10 bytes (keys and scalar values; `jsonb_path_ops` hashes paths,
 * about one per 20 bytes), an array one per element; entries of fixed-width elements (int[])
 * cost a fifth of a text-like one (measured: 0.4 us against 2 us an entry).
 */
export function ginEntriesPerRow(c: KeyColumnInfo, opclass: string | null): number {
  if (c.sampledGinEntries !== undefined) return Math.max(1, c.sampledGinEntries);
  const w = width(c, 64);
  if (c.typname === 'jsonb') return Math.max(1, opclass === 'jsonb_path_ops' ? w / 20 : w / 10);
  if (c.category === 'A') {
    const elem = c.elemLen && c.elemLen > 0 ? c.elemLen : 10;
    const entries = Math.max(1, (w - 24) / elem);
    return c.elemLen && c.elemLen > 0 ? entries * 0.2 : entries;
  }
  if (c.typname === 'tsvector') return Math.max(1, w / 8);
  // pg_trgm: a trigram per character and two more per word, each kept as a 4-byte integer key,
  // so they cost what fixed-width array elements do.
  if (opclass !== null && /trgm/.test(opclass)) return Math.max(1, w * 1.3) * 0.2;
  // pg_trgm and others on text: about one entry per character.
  return Math.max(1, w);
}

/**
 * An SP-GiST build as a share of the GiST build class's price of a unit key: it partitions the
 * space at each inner node and calls no penalty function, so its time hardly depends on the type
 * (`bench/gist-builds.ts`: inet, tstzrange, point and text at 300k and 1M rows of our own came
 * to 0.32-0.65 of that price over two runs, medians 0.49 and 0.53, where their GiST builds ranged
 * from 0.5x to 5x the SP-GiST one). Priced as GiST with its key's cost, set AI's inet SP-GiST
 * build read x3.2 over.
 */
export const SPGIST_KEY_COST = 0.51;

/**
 * A GiST build's key cost by type, against the GiST class's price of a unit key: a build calls
 * the type's penalty and union functions down the tree for every row, which cost what the type's
 * operator class makes them, not what a btree comparison of it costs; a point builds by sorting
 * (PostgreSQL 15's sorted GiST build), whatever the heap order (`bench/gist-builds.ts`, in no heap
 * order at 300k and 1M rows of our own, two runs: tstzrange 3.0-3.4, inet 0.9-1.1, point 0.2-0.35). Other
 * types keep their btree comparison cost. The class was fitted on tstzrange builds, each key at
 * its btree cost (about 2): set AJ's daterange build read x3.8 short, AI's inet x3.2 over.
 */
export const GIST_KEY_COSTS = { range: 3.2, inet: 1.0, point: 0.3 } as const;

function gistKeyCost(c: KeyColumnInfo): number | null {
  if (c.category === 'R') return GIST_KEY_COSTS.range;
  if (c.typname === 'inet' || c.typname === 'cidr') return GIST_KEY_COSTS.inet;
  if (c.typname === 'point') return GIST_KEY_COSTS.point;
  return null;
}

/**
 * The cost of an index build's keys: btree and GiST compare the first key (later keys only
 * break ties, so they add little when the first is nearly unique), hash hashes each value once,
 * GIN inserts each entry, BRIN summarises pages and does not compare at all.
 */
export function indexKeyCost(key: IndexKey): KeyCost {
  const [first, ...rest] = key.columns;
  if (!first) return { cost: 1, ginEntries: 0, label: 'unknown key', weak: true };
  const container = (c: KeyColumnInfo) => c.category === 'A' || c.typname === 'jsonb' || c.typname === 'json';
  const weak = key.columns.some((c) => c.typname === null || (c.avgWidth === null && c.typlen < 0) || (key.method === 'btree' && container(c)));
  if (key.method === 'brin') return { cost: 1, ginEntries: 0, label: 'BRIN', weak: false };
  if (key.method === 'spgist')
    return { cost: SPGIST_KEY_COST, ginEntries: 0, label: `SP-GiST on ${key.columns.map((c) => columnCost(c).label).join(', ')}`, weak };
  if (key.method === 'gin') {
    const entries = key.columns.reduce((s, c) => s + ginEntriesPerRow(c, key.opclass), 0);
    return { cost: 1, ginEntries: entries, label: `GIN on ${key.columns.map((c) => columnCost(c).label).join(', ')}`, weak };
  }
  const compared = columnCost(first);
  const head = key.method === 'gist' ? { cost: gistKeyCost(first) ?? compared.cost, label: compared.label } : compared;
  // Ties on the first key are as common as its values repeat; unknown: assume half the comparisons reach the next key.
  const ties = first.distinctShare === null || first.distinctShare === undefined ? 0.5 : Math.max(0, 1 - first.distinctShare);
  const cost = head.cost + rest.reduce((s, c) => s + 0.2 + ties * columnCost(c).cost, 0);
  const labels = [head.label, ...rest.map((c) => columnCost(c).label)].join(', ');
  const prefix = key.method === 'btree' ? '' : `${key.method === 'gist' ? 'GiST' : key.method} on `;
  return { cost, ginEntries: 0, label: `${prefix}${key.columns.length > 1 ? `multi-column (${labels})` : labels}`, weak };
}
