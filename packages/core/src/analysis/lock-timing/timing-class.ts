import { type AstNode, nodeBody, nodeKind } from '../ast';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import type { IndexMethod } from './index-key-cost';

/**
 * Statement classes whose lock hold time is calibrated separately: they do different work per
 * row (a NULL test, an expression, a join, a heap copy, a sort, a row version per change).
 */
export type TimingClass =
  | 'catalog'
  | 'scan_not_null'
  | 'scan_check'
  | 'fk_validate'
  | 'rewrite_type'
  | 'rewrite'
  | 'index_btree'
  | 'index_concurrent'
  | 'index_hash'
  | 'index_gin'
  | 'index_gist'
  | 'index_brin'
  | 'update'
  | 'insert'
  | 'delete';

export const TIMING_CLASSES: readonly TimingClass[] = [
  'catalog',
  'scan_not_null',
  'scan_check',
  'fk_validate',
  'rewrite_type',
  'rewrite',
  'index_btree',
  'index_concurrent',
  'index_hash',
  'index_gin',
  'index_gist',
  'index_brin',
  'update',
  'insert',
  'delete',
];

/** What the hold time scales with, read from the live catalog or from the snapshot. */
export interface TimingFeatures {
  /** Rows of the table (`reltuples`). */
  rows: number;
  /** Heap bytes (`relpages` x block size). */
  heapBytes: number;
  /** Indexes on the table. */
  indexes: number;
  /**
   * Of those, the ones a rewrite rebuilds by sorting its rows (all but GIN indexes, priced as the
   * GIN build class prices them through {@link TimingFeatures.rebuildGinEntries}, and BRIN
   * indexes, which only read the heap).
   */
  rebuildIndexes: number;
  /** GIN entries per row over the GIN indexes a rewrite rebuilds (0 for other statements). */
  rebuildGinEntries: number;
  /**
   * The GiST and SP-GiST indexes a rewrite rebuilds, each weighted by its key's cost (`keyCost`):
   * priced as the GiST build class prices a build (0 or unset for other statements).
   */
  rebuildGistCost?: number;
  /** Bytes of the table's TOAST relation (values stored out of line): a rewrite copies them. */
  toastBytes: number;
  /** TOAST bytes an index build's keys read (a column, or a column an expression reads, whose values are stored out of line). */
  toastRead: number;
  /** TOAST bytes the new row versions of an UPDATE write (it sets columns whose values are stored out of line). */
  touchedToastBytes: number;
  /**
   * Of those, the ones a new row version takes an entry in (an INSERT's, a non-HOT UPDATE's): see
   * {@link entryIndexWeight}.
   */
  entryIndexes: number;
  /** Rows of the referenced table, for foreign key validation. */
  parentRows: number;
  /**
   * Rows an index build sorts or inserts when it keeps fewer than the table's (a partial index:
   * the rows its predicate keeps, as the target's planner estimates them); unset: all of them.
   */
  indexedRows?: number;
  /**
   * Rows a REFRESH MATERIALIZED VIEW's query reads from the tables it names (0 for other
   * statements): each is read once and priced as a copied row, beside the view's own rows.
   */
  readRows?: number;
  /** Rows a DML statement changes. */
  touchedRows: number;
  /**
   * Heap pages holding the changed rows, counted on the target with them (a page sample's pages
   * with a match, scaled up); absent where the planner's estimate stood and nothing was counted:
   * `dirtiedPages` then models them.
   */
  touchedPages?: number;
  /**
   * Heap bytes a full scan reads past shared buffers: PostgreSQL reads a table larger than a
   * quarter of `shared_buffers` through a small ring, so its pages come from the OS cache or
   * disk each time (0 for smaller tables).
   */
  ringBytes: number;
  /** Share of the table and its indexes that cannot sit in shared buffers (0 when they fit), for DML touching rows. */
  uncachedShare: number;
  /** Planner cost (units of seq_page_cost) of finding a DML statement's rows: a scan, or an index range. */
  scanCost: number;
  /** Comparison cost of an index build's key relative to a bigint btree (`indexKeyCost`; 1 for other statements). */
  keyCost: number;
  /** GIN index entries per row, weighted by their cost (0 for other statements). */
  ginEntries: number;
  /**
   * A GIN build on a `tsvector` whose lexemes were sampled: entries a row times log2 of the
   * distinct lexemes (each entry is looked up in a tree of that many keys), in place of `ginEntries`.
   */
  lexemeLog?: number;
  /** Of those entries, a row's of lexemes outside the most frequent few thousand (`sample-lexemes.ts`). */
  coldLexemes?: number;
  /** |correlation| of the index's first key with the heap order (pg_stats; 0.5 when unknown): presorted input sorts fast. */
  keyCorrelation: number;
  /**
   * A sequential scan finds the DML statement's rows (its filter reads every row, and the rows it
   * changes lie anywhere), rather than an index range (whose cost grows with the rows changed).
   */
  foundByScan: boolean;
  /** User row-level triggers that fire for the DML statement's event on the table (each runs once per changed row). */
  rowTriggers: number;
  /** Writes to tables those triggers' bodies make per fire (`triggerWrites`: an audit INSERT, a counter UPDATE). */
  triggerWrites: number;
  /** Foreign keys referencing the table whose child has an index on the key: a DELETE probes that index once per row. */
  indexedRefs: number;
  /** Rows of referencing children without such an index: a DELETE scans each of them once per deleted row. */
  unindexedRefRows: number;
  /** Child rows an ON DELETE CASCADE deletes too (the children's row share per parent row x rows deleted). */
  cascadeRows: number;
  /**
   * Heap pages the cascade moves to for those rows, in the order its search of the child's index
   * takes them (a child on the page of the one before is no new visit).
   */
  cascadeVisits?: number;
  /** Lookups the cascaded rows' own deletion makes in the children referencing them by an indexed key (one each a row). */
  cascadeLookups?: number;
  /** Rows of unindexed children referencing the cascaded rows that their deletion scans (each such child once a row). */
  cascadeRefScanRows?: number;
  /** The distinct pages holding them, times the share of the child (heap and indexes) that cannot sit in shared buffers: each read from outside. */
  cascadeUncachedPages?: number;
  /**
   * Row trigger fires on the children a DELETE's foreign keys change (a cascaded row fires its
   * table's DELETE triggers, a row set NULL/DEFAULT its UPDATE triggers), summed over those rows:
   * priced as the statement's own fires are.
   */
  childTriggerFires?: number;
  /** Writes those fires' bodies make (`triggerWrites` per fire, summed the same way). */
  childTriggerWrites?: number;
  /**
   * Child rows a DELETE's ON DELETE SET NULL / SET DEFAULT, or an UPDATE's ON UPDATE CASCADE / SET
   * NULL / SET DEFAULT, give a new version (0 for other statements): each is an UPDATE of the
   * child's key, priced by the update class (calibration.ts).
   */
  setNullRows?: number;
  /** Index entries each of those new child versions takes (their key is indexed or not: `entryIndexWeight` over the child's indexes). */
  setNullEntries?: number;
  /**
   * Share of the changed rows whose new version takes an entry in every index of the table: an
   * INSERT's rows all do; an UPDATE's do unless it is HOT (no indexed column changed, and room on
   * the row's own page: see `nonHotShare`).
   */
  nonHotShare: number;
  /**
   * Of the entries a non-HOT UPDATE's new versions take, the share that meets a full btree leaf in
   * an index whose key the UPDATE keeps, summed over those indexes (`overflowShare`: 0 for other
   * statements, a small UPDATE, and when unknown).
   */
  fullEntryIndexes?: number;
  /** Foreign keys of the table each changed row is checked against (an UPDATE that sets their columns, an INSERT). */
  fkChecks: number;
  /** The same checks weighted by the share of each parent (with its indexes) that cannot sit in shared buffers: a lookup there reads from outside. */
  fkUncached: number;
  /**
   * The rows an index finds lie together in the heap (the index's first key follows the heap
   * order, |correlation| above 0.2): they share pages. Rows a scan finds, or an index on an
   * unordered key, lie anywhere.
   */
  rowsClustered: boolean;
}

/** A table's DML facts that are not about the table itself: no triggers, nothing references it. */
export const NO_DML_FACTS = {
  rowTriggers: 0,
  triggerWrites: 0,
  indexedRefs: 0,
  unindexedRefRows: 0,
  cascadeRows: 0,
  cascadeVisits: 0,
  cascadeUncachedPages: 0,
  cascadeLookups: 0,
  cascadeRefScanRows: 0,
  childTriggerFires: 0,
  childTriggerWrites: 0,
  setNullRows: 0,
  setNullEntries: 0,
  nonHotShare: 1,
  fullEntryIndexes: 0,
  fkChecks: 0,
  fkUncached: 0,
} as const;

export type FeatureName =
  | 'one'
  | 'rows'
  | 'heapBytes'
  | 'ringBytes'
  | 'sortedLog'
  | 'randomLog'
  | 'ginEntries'
  | 'ginLexemes'
  | 'ginColdLexemes'
  | 'rowsLog'
  | 'dirtied'
  | 'visited'
  | 'rebuild'
  | 'parentRows'
  | 'touched'
  | 'touchedIdx'
  | 'touchedUncached'
  | 'seqScanCost'
  | 'scanCost'
  | 'touchedTrig'
  | 'touchedFk'
  | 'touchedFkUncached'
  | 'touchedIdxUncached'
  | 'touchedIdxFull'
  | 'touchedRefIdx'
  | 'touchedRefScan'
  | 'toast'
  | 'toastRead'
  | 'touchedToast'
  | 'touchedTrigWrites'
  | 'cascaded'
  | 'cascadeVisits'
  | 'cascadeUncached';

const log2 = (n: number): number => Math.log2(Math.max(2, n));

/** The rows an index build takes in: a partial index's share, else every row. */
const indexed = (f: TimingFeatures): number => f.indexedRows ?? f.rows;

/**
 * The regressors of each class: hold time is modelled as a non-negative combination of them.
 * Few per class on purpose: with a handful of calibration points timed on a busy machine, every
 * extra regressor made the fit chase noise (heap bytes next to rows, a planner cost next to the
 * rows changed) and extrapolate worse.
 */
export const CLASS_FEATURES: Record<TimingClass, readonly FeatureName[]> = {
  catalog: ['one'],
  scan_not_null: ['one', 'rows', 'ringBytes'],
  scan_check: ['one', 'rows', 'ringBytes'],
  fk_validate: ['one', 'rows', 'parentRows'],
  // A rewrite copies each row (a price per row and per byte of heap, fitted on tables without
  // indexes), and each TOASTed value into a new TOAST relation (read, decompressed, compressed and
  // written again), and rebuilds the indexes.
  rewrite_type: ['one', 'rows', 'heapBytes', 'rebuild', 'toast'],
  rewrite: ['one', 'rows', 'heapBytes', 'rebuild', 'toast'],
  // Index builds sort rows x log rows comparisons, each as dear as the key (`keyCost`: a jsonb or
  // ICU text compares 2-4x slower than a bigint), and presorted input (correlation) sorts fast;
  // CONCURRENTLY scans the heap a second time to validate; hash sorts rows by hash code; GIN
  // inserts each entry; BRIN only reads the heap.
  index_btree: ['one', 'sortedLog', 'randomLog', 'toastRead'],
  index_concurrent: ['one', 'sortedLog', 'randomLog', 'rows', 'toastRead'],
  index_hash: ['one', 'rowsLog'],
  index_gin: ['one', 'ginEntries', 'ginLexemes', 'ginColdLexemes'],
  index_gist: ['one', 'randomLog'],
  index_brin: ['one', 'heapBytes'],
  // A full scan that finds the rows costs its planner cost (it reads every row, and the rows it
  // changes lie anywhere, each dirtying a page of its own); rows an index range finds cost per row
  // changed (an index range's cost grows with those rows, so a cost term there is a second copy of
  // `touched` for a noisy fit to trade against it). Per changed row come the row triggers, an
  // entry in every index unless the update is HOT (an INSERT's rows, classed here, are never),
  // the parent lookup of each foreign key whose columns it sets, and, for a DELETE, one lookup
  // per referencing foreign key (an index probe, or a scan of a child without an index). Rows an
  // index finds cost a visit per heap page they lie on (`visited`: the page pinned, locked and
  // dirtied out of heap order, which a sequential scan's cost already holds): rows of a key
  // unordered in the heap lie on a page each. A new entry into a full btree leaf whose key the
  // UPDATE kept costs more (`touchedIdxFull`: PostgreSQL first tries to delete older versions from
  // the page, visiting their heap pages, then splits it).
  update: [
    'one',
    'touched',
    'touchedIdx',
    'touchedIdxUncached',
    'touchedIdxFull',
    'seqScanCost',
    'touchedTrig',
    'touchedFk',
    'touchedFkUncached',
    'dirtied',
    'visited',
    'touchedToast',
    'touchedTrigWrites',
  ],
  // A DELETE's ON DELETE CASCADE runs once per parent row (its lookup is `touchedRefIdx`'s) and
  // deletes each child found through the child's index: a price per child, per move to another
  // heap page, and per page read from outside shared buffers (fitted on cascades of our own).
  delete: [
    'one',
    'touched',
    'seqScanCost',
    'touchedTrig',
    'touchedRefIdx',
    'touchedRefScan',
    'dirtied',
    'visited',
    'touchedTrigWrites',
    'cascaded',
    'cascadeVisits',
    'cascadeUncached',
  ],
  // An INSERT writes a new row and its index entries and locks no old version: per row and per
  // entry it costs a fraction of an UPDATE's (fitted on INSERT ... SELECT alone), plus its query
  // (`scanCost`: the planner's cost of the SELECT it runs). Each row's triggers and foreign key
  // lookups fire as an UPDATE's do and keep the update class's prices (`INSERT_SHARED_TERMS`).
  insert: ['one', 'touched', 'touchedIdx', 'touchedIdxUncached', 'scanCost', 'touchedTrig', 'touchedFk', 'touchedFkUncached', 'touchedTrigWrites'],
};

/** The insert class's terms priced per row as an UPDATE's are (not fitted on INSERTs: the calibration's INSERTs have no triggers and one kind of foreign key). */
export const INSERT_SHARED_TERMS: readonly FeatureName[] = ['touchedTrig', 'touchedFk', 'touchedFkUncached', 'touchedTrigWrites'];

/** Feature values (scaled so coefficients stay readable: per million rows, per MB). */
export function featureValue(name: FeatureName, f: TimingFeatures): number {
  switch (name) {
    case 'one':
      return 1;
    case 'rows':
      return (f.rows + (f.readRows ?? 0)) / 1e6;
    case 'heapBytes':
      return f.heapBytes / 1e6;
    case 'ringBytes':
      return f.ringBytes / 1e6;
    case 'sortedLog':
      return (indexed(f) * log2(indexed(f)) * f.keyCorrelation * f.keyCost) / 2e7;
    case 'randomLog':
      return (indexed(f) * log2(indexed(f)) * (1 - f.keyCorrelation) * f.keyCost) / 2e7;
    case 'dirtied':
      // Only pages that do not stay in shared buffers cost a write of their own under the lock.
      return (dirtiedPages(f) * f.uncachedShare) / 1e4;
    case 'visited':
      return f.foundByScan ? 0 : dirtiedPages(f) / 1e4;
    case 'rowsLog':
      // A hash build sorts the rows by hash code (no key comparisons, no heap order).
      return (indexed(f) * log2(indexed(f))) / 2e7;
    case 'ginEntries':
      return (indexed(f) * f.ginEntries) / 1e6;
    case 'ginLexemes':
      return (indexed(f) * (f.lexemeLog ?? 0)) / 1e7;
    case 'ginColdLexemes':
      return (indexed(f) * (f.coldLexemes ?? 0)) / 1e6;
    case 'rebuild':
      return (f.rebuildIndexes * f.rows * log2(f.rows)) / 2e7;
    case 'toast':
      return f.toastBytes / 1e6;
    case 'toastRead':
      return f.toastRead / 1e6;
    case 'touchedToast':
      return f.touchedToastBytes / 1e6;
    case 'parentRows':
      return f.parentRows / 1e6;
    case 'touched':
      return f.touchedRows / 1e6;
    case 'touchedIdx':
      // Index entries the changed rows add (none for a HOT update's).
      return (f.touchedRows * f.entryIndexes * f.nonHotShare) / 1e6;
    case 'touchedFk':
      return (f.touchedRows * f.fkChecks) / 1e6;
    case 'touchedIdxUncached':
      // An entry into an index that does not stay in shared buffers reads its leaf page from outside.
      return (f.touchedRows * f.entryIndexes * f.nonHotShare * f.uncachedShare) / 1e6;
    case 'touchedIdxFull':
      return (f.touchedRows * f.nonHotShare * (f.fullEntryIndexes ?? 0)) / 1e6;
    case 'touchedFkUncached':
      return (f.touchedRows * f.fkUncached) / 1e6;
    case 'touchedUncached':
      return (f.touchedRows * f.uncachedShare) / 1e6;
    case 'seqScanCost':
      return f.foundByScan ? f.scanCost / 1e5 : 0;
    case 'scanCost':
      return f.scanCost / 1e5;
    case 'touchedTrig':
      // The statement's own rows' fires, and a DELETE's children's (set AH: an audit trigger on
      // listings fired for each listing a closed seller's cascade deleted, unpriced: x2.7 short).
      return (f.touchedRows * f.rowTriggers + (f.childTriggerFires ?? 0)) / 1e6;
    case 'touchedTrigWrites':
      return (f.touchedRows * f.triggerWrites + (f.childTriggerWrites ?? 0)) / 1e6;
    case 'touchedRefIdx':
      // One search of each referencing child's index a deleted row, the statement's own and the
      // ones a cascade deletes (`cascadeLookups`: their own children's). The cascaded rows
      // themselves are the cascade terms' (priced as lookups before, AA-A's 10,000 sessions of
      // 100 devices read 47 ms for 11 real).
      return (f.touchedRows * f.indexedRefs + (f.cascadeLookups ?? 0)) / 1e6;
    case 'cascaded':
      return f.cascadeRows / 1e6;
    case 'cascadeVisits':
      return (f.cascadeVisits ?? 0) / 1e4;
    case 'cascadeUncached':
      return (f.cascadeUncachedPages ?? 0) / 1e4;
    case 'touchedRefScan':
      return (f.touchedRows * f.unindexedRefRows + (f.cascadeRefScanRows ?? 0)) / 1e9;
  }
}

/**
 * Heap pages a DML statement dirties: in a table (with its indexes) larger than shared buffers,
 * the share that does not fit is written out again while the statement runs (the feature is
 * these pages x that share). Rows a full scan
 * finds, or an index on a key unordered in the heap, are taken as spread over the heap (a page
 * holds a changed row unless all its rows missed: `id % 10 = 0` dirties every page), rows of an
 * index range on an ordered key as packed together. Pages counted on the target stand instead.
 */
export function dirtiedPages(f: Pick<TimingFeatures, 'heapBytes' | 'rows' | 'touchedRows' | 'touchedPages' | 'foundByScan' | 'rowsClustered'>): number {
  const pages = Math.max(1, f.heapBytes / 8192);
  if (f.touchedPages !== undefined) return Math.min(pages, f.touchedPages);
  const perPage = Math.max(1, f.rows / pages);
  const share = f.rows > 0 ? Math.min(1, f.touchedRows / f.rows) : 0;
  return f.foundByScan || !f.rowsClustered ? pages * (1 - (1 - share) ** perPage) : Math.min(pages, f.touchedRows / perPage);
}

/**
 * How much of an index entry a new row version costs in one index: none in a BRIN index (it
 * keeps a summary per range of pages, widened at most), a whole one in most others. In a partial
 * index only the rows its predicate keeps take one: half, since the share is not measured,
 * unless the UPDATE sets a column the predicate reads (`SET status = 'archived'` under `WHERE
 * status <> 'done'` may move every row in).
 */
/** A class that copies the table into a new one and rebuilds its indexes. */
export const isRewrite = (cls: TimingClass): boolean => cls === 'rewrite' || cls === 'rewrite_type';

/**
 * Whether a rewrite rebuilds an index of this access method by sorting the rows: not a GIN index
 * (priced per entry, as the GIN build class prices it), nor a GiST or SP-GiST one (each row
 * inserted down a tree of penalties, as the GiST build class prices it: set AI's inet GiST index
 * priced as a sort left its rewrite and CLUSTER x2.1-3.2 short), nor a BRIN one (it only reads
 * the heap).
 */
export const rebuiltBySort = (method: string): boolean => method !== 'gin' && method !== 'brin' && !rebuiltAsGist(method);

/** Whether a rewrite rebuilds an index of this access method as the GiST build class prices it. */
export const rebuiltAsGist = (method: string): boolean => method === 'gist' || method === 'spgist';

/**
 * A GIN entry a new row version adds, as a share of a btree entry: the GIN build class prices an
 * entry at 0.49 us and the UPDATE class a btree entry at 2.4 us (calibration-data.json); a row
 * adds every entry of its value (a pending-list insert, merged later under the same lock when the
 * list fills).
 */
export const GIN_ENTRY_SHARE = 0.2;

export function entryIndexWeight(index: { method: string; partial: boolean; predicateAssigned?: boolean }): number {
  if (index.method === 'brin') return 0;
  return index.partial && !index.predicateAssigned ? 0.5 : 1;
}

/** A sequential scan's planner cost with default cost settings: a page read each, plus a tuple's CPU. */
export const seqScanCost = (heapBytes: number, rows: number): number => heapBytes / 8192 + 0.01 * rows;

/** Default `shared_buffers` (128 MB), assumed when the target's setting is not known. */
export const DEFAULT_SHARED_BUFFERS = 128 * 2 ** 20;

/**
 * The buffer-related features of a table of `heapBytes` (and `indexBytes` of indexes, which
 * compete for the same buffers) on a server with `sharedBuffers`.
 */
export const bufferFeatures = (heapBytes: number, sharedBuffers: number, indexBytes = 0): { ringBytes: number; uncachedShare: number } => {
  const total = heapBytes + indexBytes;
  return { ringBytes: heapBytes > sharedBuffers / 4 ? heapBytes : 0, uncachedShare: total > sharedBuffers ? 1 - sharedBuffers / total : 0 };
};

/** Types whose values are fixed-width and compared without collation (cheap sort keys). */
const FIXED =
  /^(smallint|integer|int|int2|int4|int8|bigint|date|timestamp|time|timestamptz|uuid|boolean|bool|real|double precision|float4|float8|oid|money|serial|bigserial)\b/i;
export const isFixedWidthType = (type: string | undefined): boolean => !!type && FIXED.test(type.trim());

/** One key of an index a statement builds, as written: a column (or null for an expression), its COLLATE and operator class. */
export interface IndexParam {
  column: string | null;
  collation: string | null;
  opclass: string | null;
}

/** The index a statement builds: access method, CONCURRENTLY, keys; null when it builds none. */
export interface BuiltIndex {
  method: IndexMethod;
  concurrent: boolean;
  params: IndexParam[];
}

const METHODS: Record<string, IndexMethod> = { btree: 'btree', hash: 'hash', gin: 'gin', gist: 'gist', spgist: 'spgist', brin: 'brin' };
const lastName = (list: unknown): string | null => {
  const items = (list ?? []) as AstNode[];
  const s = items[items.length - 1]?.String?.sval;
  return s === undefined ? null : String(s);
};

/** The index a statement builds (CREATE INDEX, or a PRIMARY KEY / UNIQUE constraint's btree). */
export function builtIndex(stmt: ParsedStatement, facts: StatementFacts): BuiltIndex | null {
  if (nodeKind(stmt.stmt) === 'IndexStmt') {
    const b = nodeBody(stmt.stmt);
    const params = ((b.indexParams ?? []) as AstNode[]).map((p) => {
      const e = p.IndexElem as AstNode;
      return { column: e.name ? String(e.name) : null, collation: lastName(e.collation), opclass: lastName(e.opclass) };
    });
    return { method: METHODS[String(b.accessMethod ?? 'btree')] ?? 'btree', concurrent: !!b.concurrent, params };
  }
  for (const c of facts.subcommands) {
    const con = c.def?.Constraint as AstNode | undefined;
    // An exclusion constraint builds an index of its access method (GiST, most often) on its elements.
    if (con?.contype === 'CONSTR_EXCLUSION' && con.exclusions?.length)
      return {
        method: METHODS[String(con.access_method ?? 'btree')] ?? 'btree',
        concurrent: false,
        params: (con.exclusions as AstNode[]).map((x) => {
          const e = ((x.List?.items ?? []) as AstNode[])[0]?.IndexElem as AstNode | undefined;
          return { column: e?.name ? String(e.name) : null, collation: lastName(e?.collation), opclass: lastName(e?.opclass) };
        }),
      };
    if (con?.keys?.length)
      return {
        method: 'btree',
        concurrent: false,
        params: (con.keys as AstNode[]).map((k) => ({ column: String(k.String?.sval ?? ''), collation: null, opclass: null })),
      };
    const col = c.def?.ColumnDef as AstNode | undefined;
    if (col) return { method: 'btree', concurrent: false, params: [{ column: String(col.colname ?? ''), collation: null, opclass: null }] };
  }
  return null;
}

/** The first key column of an index the statement builds (null for an expression, undefined when it builds none). */
export function indexKeyColumn(stmt: ParsedStatement, facts: StatementFacts): string | null | undefined {
  const index = builtIndex(stmt, facts);
  return index ? (index.params[0]?.column ?? null) : undefined;
}

const INDEX_CLASS: Record<IndexMethod, TimingClass> = {
  btree: 'index_btree',
  hash: 'index_hash',
  gin: 'index_gin',
  gist: 'index_gist',
  // Priced by the GiST class at SP-GiST's own key cost (`SPGIST_KEY_COST`).
  spgist: 'index_gist',
  brin: 'index_brin',
};

/** The class of a statement's lock hold, or null when no table is held. */
export function timingClass(stmt: ParsedStatement, facts: StatementFacts): TimingClass | null {
  if (facts.effect === 'none' || facts.lock_type === 'NONE') return null;
  switch (facts.effect) {
    case 'catalog':
      return 'catalog';
    case 'scan': {
      if (facts.subcommands.some((c) => c.subtype === 'AT_SetNotNull')) return 'scan_not_null';
      const fk = facts.subcommands.some(
        (c) =>
          c.def?.Constraint?.contype === 'CONSTR_FOREIGN' || c.def?.ColumnDef?.constraints?.some?.((x: AstNode) => x.Constraint?.contype === 'CONSTR_FOREIGN'),
      );
      return fk || facts.fk_targets.length ? 'fk_validate' : 'scan_check';
    }
    case 'rewrite':
      return facts.subcommands.some((c) => c.subtype === 'AT_AlterColumnType') ? 'rewrite_type' : 'rewrite';
    case 'index_build': {
      // REINDEX and the like: rebuilt like a btree of the table.
      const index = builtIndex(stmt, facts);
      if (!index) return 'index_btree';
      return index.concurrent && index.method === 'btree' ? 'index_concurrent' : INDEX_CLASS[index.method];
    }
    case 'data':
      return facts.statement_type === 'DELETE' ? 'delete' : facts.statement_type === 'INSERT' ? 'insert' : 'update';
    default:
      return null;
  }
}
