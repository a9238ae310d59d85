import type { TableInfo } from '../introspection/schema-snapshot';
import { predictHoldMs } from './lock-timing/calibration';
import { snapshotFeatures } from './lock-timing/snapshot-features';
import type { ParsedStatement } from './parse-statements';
import type { StatementFacts } from './statement-facts';

/**
 * Throughput assumptions for the estimate (a mid-size cloud instance on SSD). The point is the
 * order of magnitude, so users see at a glance whether a lock lasts milliseconds or minutes.
 */
export const DURATION_MODEL = {
  /** Catalog-only change, including waiting for the lock queue to drain at commit. */
  catalogMs: 5,
  /** Sequential scan throughput, bytes per ms (~200 MB/s). */
  scanBytesPerMs: 200_000,
  /** Heap rewrite throughput incl. WAL, bytes per ms (~50 MB/s). */
  rewriteBytesPerMs: 50_000,
  /** Per-row costs. */
  scanRowMs: 0.0005,
  rewriteRowMs: 0.004,
  indexRowMs: 0.002,
  dmlRowMs: 0.01,
  /** Share of rows a DML statement with WHERE is assumed to touch. */
  whereSelectivity: 0.05,
  /** CREATE INDEX CONCURRENTLY scans twice and waits for old snapshots. */
  concurrentFactor: 2.5,
} as const;

const heapBytes = (t: TableInfo): number => Math.max(t.pages * 8192, t.total_bytes - t.indexes.reduce((s, i) => s + i.size_bytes, 0), 0);

/**
 * Estimated time the statement holds its lock on `table`, in ms (rounded to 0.1 ms): the
 * calibrated figure when the statement is given and its class is calibrated, else the
 * throughput assumptions of {@link DURATION_MODEL}.
 */
export function estimateLockDuration(f: StatementFacts, table: TableInfo | undefined, stmt?: ParsedStatement, parent?: TableInfo): number {
  if (f.effect === 'none' || f.lock_type === 'NONE') return 0;
  // The figure only: the estimate's range and basis sentence are for the live report.
  const x = stmt ? snapshotFeatures(stmt, f, table, parent) : null;
  const calibrated = x ? predictHoldMs(x.cls, x.features) : null;
  if (calibrated !== null)
    return (
      Math.round(calibrated * (f.statement_type.includes('CONCURRENTLY') && x!.cls !== 'index_concurrent' ? DURATION_MODEL.concurrentFactor : 1) * 10) / 10
    );
  const m = DURATION_MODEL;
  const rows = table?.row_estimate ?? 0;
  const bytes = table ? heapBytes(table) : 0;
  const total = table?.total_bytes ?? 0;
  let ms: number;
  switch (f.effect) {
    case 'catalog':
      ms = m.catalogMs;
      break;
    case 'scan':
      ms = m.catalogMs + Math.max(bytes / m.scanBytesPerMs, rows * m.scanRowMs);
      break;
    case 'rewrite':
      ms = m.catalogMs + Math.max(total / m.rewriteBytesPerMs, rows * m.rewriteRowMs);
      break;
    case 'index_build':
      ms =
        (m.catalogMs + Math.max(bytes / m.scanBytesPerMs, rows * m.indexRowMs * Math.max(1, Math.log2(Math.max(rows, 2)) / 10))) *
        (f.statement_type.includes('CONCURRENTLY') ? m.concurrentFactor : 1);
      break;
    case 'data':
      ms = m.catalogMs + rows * m.dmlRowMs * (f.has_where ? m.whereSelectivity : 1);
      break;
    default:
      ms = 0;
  }
  return Math.round(ms * 10) / 10;
}
