import { formatCount } from '../../util/format-count';
import { findTable } from '../live-catalog';
import { keysFromPredicates, orderKeys } from '../index-candidate';
import { predicatesFor } from '../predicate-analysis';
import type { IndexCandidate } from '../index-candidate';
import { isSeqScan, matters, MIN_TABLE_ROWS, type IndexRule } from './rule-context';

/** Share of a table's rows a filter may keep for an index to pay off. */
const MAX_SELECTIVITY = 0.1;

const pct = (share: number): string => `${Number((share * 100).toPrecision(2)).toString()}%`;

/** A sequential scan whose filter discards most rows: index the filter's columns. */
export const seqScanFilterRule: IndexRule = async (ctx) => {
  const out: IndexCandidate[] = [];
  for (const visit of ctx.visits) {
    const n = visit.node;
    if (!isSeqScan(n) || !n.Filter || !n['Relation Name']) continue;
    const table = findTable(ctx.catalog, n['Relation Name'], n.Schema);
    if (!table || table.rowEstimate < MIN_TABLE_ROWS || !matters(visit, ctx)) continue;
    const kept = ctx.analyzed && n['Actual Rows'] !== undefined ? n['Actual Rows'] : n['Plan Rows'];
    const removed = ctx.analyzed && n['Rows Removed by Filter'] !== undefined ? n['Rows Removed by Filter'] : Math.max(0, table.rowEstimate - kept);
    const selectivity = kept / Math.max(1, kept + removed);
    if (selectivity > MAX_SELECTIVITY) continue;
    const { eq, range, partial } = keysFromPredicates(await predicatesFor(n.Filter, n.Alias ?? n['Relation Name']));
    const keys = orderKeys(eq, range.slice(0, 1), []);
    if (keys.length === 0) continue;
    out.push({
      schema: table.schema,
      table: table.name,
      keys,
      predicate: partial,
      rule: 'seq-scan-filter',
      reason: `Sequential scan of ${table.name} keeps about ${pct(selectivity)} of ${formatCount(kept + removed)} rows (filter ${n.Filter}); an index on ${keys.map((k) => k.column).join(', ')} reads only the matching rows.`,
      benefits: [`Replaces the sequential scan of ${table.name} (${formatCount(kept + removed)} rows) with an index scan`],
      detection_method: 'rule_based',
    });
  }
  return out;
};
