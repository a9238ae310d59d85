import { formatCount } from '../../util/format-count';
import { findTable } from '../live-catalog';
import { keysFromPredicates, orderKeys, type IndexCandidate } from '../index-candidate';
import { predicatesFor } from '../predicate-analysis';
import { isSeqScan, matters, MIN_TABLE_ROWS, unwrap, type IndexRule } from './rule-context';

/** The inner side of a nested loop is a sequential scan, repeated for every outer row: index its join column. */
export const nestedLoopInnerSeqScanRule: IndexRule = async (ctx) => {
  const out: IndexCandidate[] = [];
  for (const visit of ctx.visits) {
    const loop = visit.node;
    if (loop['Node Type'] !== 'Nested Loop' || loop.Plans?.length !== 2) continue;
    const inner = unwrap(loop.Plans[1]!);
    if (!isSeqScan(inner) || !inner['Relation Name']) continue;
    const table = findTable(ctx.catalog, inner['Relation Name'], inner.Schema);
    if (!table || table.rowEstimate < MIN_TABLE_ROWS || !matters(visit, ctx)) continue;
    const alias = inner.Alias ?? inner['Relation Name'];
    const preds = [...(await predicatesFor(loop['Join Filter'], alias)), ...(await predicatesFor(inner.Filter, alias))];
    const join = preds.filter((p) => p.kind === 'join');
    if (join.length === 0) continue;
    const { eq, range, partial } = keysFromPredicates(preds);
    const keys = orderKeys([...eq, ...join.map((p) => ({ column: p.column, isExpression: p.isExpression }))], range.slice(0, 1), []);
    const outerRows = loop.Plans[0]!['Plan Rows'];
    out.push({
      schema: table.schema,
      table: table.name,
      keys,
      predicate: partial,
      rule: 'nested-loop-inner-seq-scan',
      reason: `Nested loop scans all of ${table.name} (${formatCount(table.rowEstimate)} rows) once per outer row (about ${formatCount(outerRows)} times) to match ${join.map((j) => j.sql).join(' AND ')}; an index on ${join.map((j) => j.column).join(', ')} turns each repetition into an index lookup.`,
      benefits: [`Each of the ~${formatCount(outerRows)} inner lookups becomes an index probe instead of a full scan of ${table.name}`],
      detection_method: 'rule_based',
    });
  }
  return out;
};
