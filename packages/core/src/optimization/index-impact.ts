import type { IndexCandidate } from './index-candidate';
import type { CatalogTable } from './live-catalog';

/** Bytes per index entry beyond the key: IndexTuple header and line pointer. */
const ENTRY_OVERHEAD = 12;
/** Default btree leaf fill factor. */
const FILL_FACTOR = 0.9;
const EXPRESSION_WIDTH = 16;

/** Index size from the table's row count and the keys' average widths (pg_stats), for servers without HypoPG. */
export function estimateIndexBytes(c: IndexCandidate, table: CatalogTable): number {
  const keyWidth = c.keys.reduce((sum, k) => sum + (k.isExpression ? EXPRESSION_WIDTH : (table.columns.get(k.column)?.avgWidth ?? EXPRESSION_WIDTH)), 0);
  const aligned = Math.ceil((keyWidth + ENTRY_OVERHEAD) / 8) * 8;
  return Math.round((table.rowEstimate * aligned) / FILL_FACTOR) + 8192;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/** How much write work the index adds, judged from the table's recorded activity (pg_stat_user_tables). */
export function writeOverheadWarning(c: IndexCandidate, table: CatalogTable): string {
  const w = table.writes;
  const writes = w.inserts + w.updates + w.deletes;
  const cols = c.keys.map((k) => k.column).join(', ');
  const existing = table.indexes.length;
  const base = `Every INSERT and DELETE on ${table.name}, and every UPDATE that changes ${cols}, must also maintain this index (the table has ${existing} index${existing === 1 ? '' : 'es'} already)`;
  if (writes === 0) return `${base}; no writes are recorded in pg_stat_user_tables since statistics were last reset.`;
  const reads = w.seqScans + w.idxScans;
  // The initial load shows up as inserts equal to the row count: only churn beyond it is "high".
  const rows = Math.max(table.rowEstimate, 1);
  const heavy = w.updates + w.deletes > rows * 0.5 || w.inserts > rows * 2;
  return `${heavy ? 'High write activity: ' : ''}${base}; pg_stat_user_tables records ${writes.toLocaleString('en-US')} row writes (${w.inserts.toLocaleString('en-US')} inserts, ${w.updates.toLocaleString('en-US')} updates, ${w.deletes.toLocaleString('en-US')} deletes) against ${reads.toLocaleString('en-US')} scans.`;
}
