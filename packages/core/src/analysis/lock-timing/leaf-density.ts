import { alignedSpan } from './hot-update';
import { type FeatureClient, optionalQuery } from './live-table';

/** A btree index's size, and its key as `pg_stats` describes it (the table's column, or the index's own statistics for an expression). */
export interface BtreeShape {
  /** Key columns in order (null for an expression). */
  columns: Array<string | null>;
  /** `pg_get_expr` of the index's expressions, or null. */
  expressions: string | null;
  pages: number;
  /** Index tuples (`reltuples`). */
  entries: number;
  unique: boolean;
  keys: Array<{ len: number; align: string; width: number | null; distinct: number | null }>;
}

/** Usable bytes of a btree page (8 kB less the page header and the btree's special space). */
const PAGE_BYTES = 8152;
/** A posting list holds at most about this many heap pointers (`BTMaxItemSize` of 6-byte TIDs). */
const MAX_POSTING = 400;

/**
 * Share of its leaf pages' space a btree index fills, estimated from its size and its key: each
 * entry is the index tuple header, the key's average width aligned, and a line pointer; a key
 * repeated `k` times (not unique, `n_distinct` of its columns multiplied, capped at the entries)
 * is stored once with a 6-byte pointer per row (deduplication). Within 0.05 of `pgstatindex`'s
 * `avg_leaf_density` on the shapes tried (freshly built: 0.86-0.92; after an UPDATE of a quarter
 * of the rows: 0.45-0.73), except keys with hundreds of repeats after an UPDATE (0.71 for 0.91).
 * Null when a key has no width or the figure cannot be a density (over 1.05: deduplicated beyond
 * what the statistics say).
 */
export function leafDensity(s: BtreeShape): number | null {
  if (s.pages < 2 || s.entries <= 0) return null;
  let key = 0;
  let distinct = 1;
  for (const k of s.keys) {
    const width = k.width ?? (k.len > 0 ? k.len : null);
    if (width === null) return null;
    key += alignedSpan(key, k, width);
    const nd = k.distinct === null ? s.entries : k.distinct < 0 ? -k.distinct * s.entries : k.distinct;
    distinct *= Math.max(1, nd);
  }
  const repeats = s.unique ? 1 : Math.min(MAX_POSTING, Math.max(1, s.entries / Math.min(s.entries, distinct)));
  const tuple = Math.ceil((8 + key) / 8) * 8 + 4;
  const perEntry = repeats >= 2 ? tuple / repeats + 6 : tuple;
  const density = (s.entries * perEntry) / ((s.pages - 1) * PAGE_BYTES);
  return density > 1.05 ? null : Math.min(1, density);
}

/**
 * Share of `newEntries` (an UPDATE's new versions, spread over the index's leaves as the rows they
 * replace are) that find their leaf full: a leaf at `density` holds room for `(1 - density) /
 * density` of its entries again, and what lands beyond that room meets a full page. An UPDATE's
 * entry into a full leaf whose key it did not change makes PostgreSQL (14+) first try to delete
 * older versions of the same rows from the page, visiting their heap pages, and then split it. A
 * freshly built index (0.9) takes a tenth of its entries again before that starts; a small
 * UPDATE never reaches it.
 */
export function overflowShare(s: Pick<BtreeShape, 'pages' | 'entries'>, density: number | null, newEntries: number): number {
  if (density === null || density <= 0 || newEntries <= 0 || s.entries <= 0) return 0;
  const leaves = Math.max(1, s.pages - 1);
  const room = ((s.entries / leaves) * (1 - density)) / density;
  return Math.max(0, 1 - room / (newEntries / leaves));
}

/** The table's plain (not partial) btree indexes, with what `leafDensity` reads (none when the catalog read fails: the transaction stays usable). */
export async function btreeShapes(client: FeatureClient, tableOid: number): Promise<BtreeShape[]> {
  const rows = await optionalQuery(
    client,
    `SELECT ic.relpages AS pages, greatest(ic.reltuples, 0)::float8 AS entries, i.indisunique AS "unique",
            ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                   WHERE k.ord <= i.indnkeyatts ORDER BY k.ord) AS columns,
            pg_get_expr(i.indexprs, i.indrelid) AS expressions,
            (SELECT coalesce(json_agg(json_build_object('len', ia.attlen, 'align', ia.attalign,
                      'width', coalesce(s.avg_width, se.avg_width), 'distinct', coalesce(s.n_distinct, se.n_distinct)) ORDER BY ia.attnum), '[]')
               FROM pg_attribute ia
               LEFT JOIN pg_attribute ta ON ta.attrelid = i.indrelid AND ta.attnum = i.indkey[ia.attnum - 1] AND i.indkey[ia.attnum - 1] <> 0
               LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = ta.attname
               LEFT JOIN pg_stats se ON se.schemaname = n.nspname AND se.tablename = ic.relname AND se.attname = ia.attname
              WHERE ia.attrelid = i.indexrelid AND ia.attnum <= i.indnkeyatts) AS keys
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
       JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indrelid = ${Number(tableOid)} AND am.amname = 'btree' AND i.indpred IS NULL`,
  );
  type Row = { pages: number; entries: number; unique: boolean; columns: Array<string | null>; expressions: string | null; keys: BtreeShape['keys'] };
  return ((rows ?? []) as Row[]).map((r) => ({ ...r, pages: Number(r.pages), entries: Number(r.entries) }));
}
