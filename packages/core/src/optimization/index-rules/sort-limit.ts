import { formatCount } from '../../util/format-count';
import { findTable } from '../live-catalog';
import { keysFromPredicates, orderKeys, type IndexCandidate } from '../index-candidate';
import { predicatesFor } from '../predicate-analysis';
import type { RawPlanNode } from '../raw-plan';
import { sortKeysFor } from '../sort-keys';
import { matters, MIN_TABLE_ROWS, type IndexRule } from './rule-context';

const SCANS = new Set(['Seq Scan', 'Bitmap Heap Scan', 'Index Scan', 'Index Only Scan']);
const PASS_THROUGH = new Set(['Gather', 'Gather Merge', 'Result', 'Subquery Scan', 'Materialize']);

/** The scan a sort reads, through single-input nodes; undefined when a join or aggregate is in between. */
function scanBelow(node: RawPlanNode): RawPlanNode | undefined {
  let n = node.Plans?.[0];
  while (n && PASS_THROUGH.has(n['Node Type']) && n.Plans?.length === 1) n = n.Plans[0];
  if (n && n['Node Type'] === 'Bitmap Heap Scan') return n;
  return n && SCANS.has(n['Node Type']) ? n : undefined;
}

/**
 * A sort that spills to disk or feeds a LIMIT: an index in ORDER BY order (after the
 * equality filters) returns rows already sorted, so a LIMIT can stop after a few of them.
 */
export const sortLimitRule: IndexRule = async (ctx) => {
  const out: IndexCandidate[] = [];
  for (const visit of ctx.visits) {
    const sort = visit.node;
    if (sort['Node Type'] !== 'Sort') continue;
    const spilled = sort['Sort Space Type'] === 'Disk';
    const feedsLimit = visit.parent?.['Node Type'] === 'Limit';
    if ((!spilled && !feedsLimit) || !matters(visit, ctx)) continue;
    const scan = scanBelow(sort);
    if (!scan?.['Relation Name']) continue;
    const table = findTable(ctx.catalog, scan['Relation Name'], scan.Schema);
    if (!table || table.rowEstimate < MIN_TABLE_ROWS) continue;
    const alias = scan.Alias ?? scan['Relation Name'];
    const orderBy = await sortKeysFor(sort['Sort Key'], alias);
    if (!orderBy) continue;
    const preds = await predicatesFor(scan.Filter ?? (scan['Recheck Cond'] as string | undefined), alias);
    const { eq, partial } = keysFromPredicates(preds);
    const keys = orderKeys(eq, [], orderBy);
    const why = spilled ? `spills ${formatCount(sort['Sort Space Used'] ?? 0)} kB to disk` : 'feeds a LIMIT';
    out.push({
      schema: table.schema,
      table: table.name,
      keys,
      predicate: partial,
      rule: 'sort-limit',
      reason: `Sort on ${(sort['Sort Key'] ?? []).join(', ')} ${why} after reading ${table.name}; an index on ${keys.map((k) => `${k.column}${k.descending ? ' DESC' : ''}`).join(', ')} delivers rows in order.`,
      benefits: [feedsLimit ? 'The LIMIT stops after the first rows of an ordered index scan instead of sorting everything' : 'Removes the on-disk sort'],
      detection_method: 'rule_based',
    });
  }
  return out;
};
