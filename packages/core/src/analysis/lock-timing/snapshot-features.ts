import type { TableInfo } from '../../introspection/schema-snapshot';
import type { ParsedStatement } from '../parse-statements';
import type { StatementFacts } from '../statement-facts';
import {
  bufferFeatures,
  DEFAULT_SHARED_BUFFERS,
  NO_DML_FACTS,
  seqScanCost,
  isFixedWidthType,
  type TimingClass,
  timingClass,
  type TimingFeatures,
} from './timing-class';

/** Share of rows a DML statement with a WHERE is assumed to change when no planner can be asked. */
export const DML_WHERE_SELECTIVITY = 0.05;

const NO_KEY_TYPE = (): boolean => false;

/** Class and features from the snapshot alone (no connection): its row estimate, pages and indexes. */
export function snapshotFeatures(
  stmt: ParsedStatement,
  facts: StatementFacts,
  table: TableInfo | undefined,
  parent: TableInfo | undefined,
): { cls: TimingClass; features: TimingFeatures } | null {
  if (!table) return null;
  // Only an index build asks for its key column's type: no closure over the table for the rest.
  const cls = timingClass(
    stmt,
    facts,
    facts.effect === 'index_build' ? (column) => isFixedWidthType(table.columns.find((c) => c.name === column)?.data_type) : NO_KEY_TYPE,
  );
  if (!cls) return null;
  // Asked for every statement of every analysis: plain loops and fields, no spreads or reduce.
  const rows = Math.max(0, table.row_estimate);
  let indexBytes = 0;
  for (let i = 0; i < table.indexes.length; i++) indexBytes += table.indexes[i]!.size_bytes;
  const heapBytes = Math.max(table.pages * 8192, table.total_bytes - indexBytes, 0);
  const buffers = bufferFeatures(heapBytes, DEFAULT_SHARED_BUFFERS, indexBytes);
  return {
    cls,
    features: {
      rows,
      heapBytes,
      indexes: table.indexes.length,
      parentRows: Math.max(0, parent?.row_estimate ?? 0),
      touchedRows: facts.has_where ? rows * DML_WHERE_SELECTIVITY : rows,
      ringBytes: buffers.ringBytes,
      uncachedShare: buffers.uncachedShare,
      keyCorrelation: 0.5,
      // Without a planner to ask, finding the rows is costed as a full scan.
      scanCost: seqScanCost(heapBytes, rows),
      // Without a planner to ask, a WHERE is taken as an index range, no WHERE as a full scan.
      foundByScan: !facts.has_where,
      // Triggers and referencing foreign keys are read from the live catalog only.
      rowTriggers: NO_DML_FACTS.rowTriggers,
      indexedRefs: NO_DML_FACTS.indexedRefs,
      unindexedRefRows: NO_DML_FACTS.unindexedRefRows,
      cascadeRows: NO_DML_FACTS.cascadeRows,
    },
  };
}
