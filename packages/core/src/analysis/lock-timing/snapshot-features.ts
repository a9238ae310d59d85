import type { ColumnInfo, TableInfo } from '../../introspection/schema-snapshot';
import { indexKeyCost, type KeyColumnInfo } from './index-key-cost';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import { insertSource } from './inserted-rows';
import {
  bufferFeatures,
  entryIndexWeight,
  DEFAULT_SHARED_BUFFERS,
  NO_DML_FACTS,
  seqScanCost,
  builtIndex,
  isFixedWidthType,
  isRewrite,
  rebuiltAsGist,
  rebuiltBySort,
  type TimingClass,
  timingClass,
  type TimingFeatures,
} from './timing-class';

/** Share of rows a DML statement with a WHERE is assumed to change when no planner can be asked. */
export const DML_WHERE_SELECTIVITY = 0.05;

/** A key column as far as the snapshot tells: its type name, and its collation when it is not the database's. */
function snapshotKeyColumn(col: ColumnInfo | undefined, collation: string | null): KeyColumnInfo {
  if (!col) return { typname: null, typlen: -1, category: 'U', collation: null, avgWidth: null };
  const fixed = isFixedWidthType(col.data_type);
  const array = col.udt_name.startsWith('_');
  const textual = !array && /^(text|varchar|bpchar|citext|name)$/.test(col.udt_name);
  const coll = (collation ?? col.collation ?? '').replace(/"/g, '');
  return {
    typname: col.udt_name,
    typlen: fixed ? (col.udt_name === 'uuid' ? 16 : 8) : -1,
    category: array ? 'A' : textual ? 'S' : /range$/.test(col.udt_name) ? 'R' : 'U',
    collation: textual ? (/^(C|POSIX)$/i.test(coll) ? 'c' : /icu/i.test(coll) ? 'icu' : 'libc') : null,
    avgWidth: null,
  };
}

/**
 * Rows the statement writes, from the snapshot: an INSERT's own rows (a VALUES list counts
 * itself; a query's source is not looked up here, so a share of the target's size stands in),
 * otherwise the target's rows, a share of them under a WHERE.
 */
function snapshotTouchedRows(stmt: ParsedStatement, facts: StatementFacts, rows: number): number {
  const source = insertSource(stmt);
  if (source?.kind === 'values') return source.rows;
  if (source) return rows * DML_WHERE_SELECTIVITY;
  return facts.has_where ? rows * DML_WHERE_SELECTIVITY : rows;
}

/** Class and features from the snapshot alone (no connection): its row estimate, pages and indexes. */
export function snapshotFeatures(
  stmt: ParsedStatement,
  facts: StatementFacts,
  table: TableInfo | undefined,
  parent: TableInfo | undefined,
): { cls: TimingClass; features: TimingFeatures } | null {
  if (!table) return null;
  const cls = timingClass(stmt, facts);
  if (!cls) return null;
  // Only an index build looks up its key columns.
  const index = facts.effect === 'index_build' ? builtIndex(stmt, facts) : null;
  const key = index
    ? indexKeyCost({
        method: index.method,
        opclass: index.params[0]?.opclass ?? null,
        columns: index.params.map((p) => snapshotKeyColumn(p.column === null ? undefined : table.columns.find((c) => c.name === p.column), p.collation)),
      })
    : null;
  // Asked for every statement of every analysis: plain loops and fields, no spreads or reduce.
  const rows = Math.max(0, table.row_estimate);
  let indexBytes = 0;
  let entryIndexes = 0;
  let rebuildIndexes = 0;
  let rebuildGinEntries = 0;
  let rebuildGistCost = 0;
  const rewrites = isRewrite(cls);
  for (let i = 0; i < table.indexes.length; i++) {
    const ix = table.indexes[i]!;
    indexBytes += ix.size_bytes;
    entryIndexes += entryIndexWeight({ method: ix.method, partial: ix.predicate !== null });
    // A rewrite rebuilds each GIN index per entry and each GiST one down its tree, as their builds do.
    const keys = () =>
      ix.columns.map((name) =>
        snapshotKeyColumn(
          table.columns.find((c) => c.name === name),
          null,
        ),
      );
    if (ix.method === 'gin' && rewrites) rebuildGinEntries += indexKeyCost({ method: 'gin', opclass: null, columns: keys() }).ginEntries;
    else if (rebuiltAsGist(ix.method) && rewrites)
      rebuildGistCost += indexKeyCost({ method: ix.method === 'spgist' ? 'spgist' : 'gist', opclass: null, columns: keys() }).cost;
    else if (rebuiltBySort(ix.method)) rebuildIndexes += 1;
  }
  const heapBytes = Math.max(table.pages * 8192, table.total_bytes - indexBytes, 0);
  const buffers = bufferFeatures(heapBytes, DEFAULT_SHARED_BUFFERS, indexBytes);
  return {
    cls,
    features: {
      rows,
      heapBytes,
      indexes: table.indexes.length,
      entryIndexes,
      rebuildIndexes,
      rebuildGinEntries,
      ...(rebuildGistCost > 0 ? { rebuildGistCost } : {}),
      // The snapshot's heap figure already holds the TOAST bytes (its total less the indexes), and
      // which columns are stored out of line is only read live.
      toastBytes: 0,
      toastRead: 0,
      touchedToastBytes: 0,
      parentRows: Math.max(0, parent?.row_estimate ?? 0),
      touchedRows: snapshotTouchedRows(stmt, facts, rows),
      ringBytes: buffers.ringBytes,
      uncachedShare: buffers.uncachedShare,
      // A GiST build inserts down its tree in any order (a point's sorts): the heap order does not help it.
      keyCorrelation: cls === 'index_gist' ? 0 : 0.5,
      keyCost: key?.cost ?? 1,
      ginEntries: key?.ginEntries ?? 0,
      // Without a planner to ask, finding the rows is costed as a full scan.
      scanCost: seqScanCost(heapBytes, rows),
      // Without a planner to ask, a WHERE is taken as an index range, no WHERE as a full scan.
      foundByScan: !facts.has_where,
      // Triggers, foreign keys both ways and HOT updates are read from the live catalog only.
      rowTriggers: NO_DML_FACTS.rowTriggers,
      triggerWrites: NO_DML_FACTS.triggerWrites,
      indexedRefs: NO_DML_FACTS.indexedRefs,
      unindexedRefRows: NO_DML_FACTS.unindexedRefRows,
      cascadeRows: NO_DML_FACTS.cascadeRows,
      nonHotShare: NO_DML_FACTS.nonHotShare,
      fkChecks: NO_DML_FACTS.fkChecks,
      fkUncached: NO_DML_FACTS.fkUncached,
      rowsClustered: true,
    },
  };
}
