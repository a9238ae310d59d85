import { formatCount } from '../../util/format-count';
import { findTable } from '../live-catalog';
import { hasLeadingIndex, type IndexCandidate } from '../index-candidate';
import { JOIN_TYPES, joinSides } from './join-conditions';
import { matters, MIN_TABLE_ROWS, type IndexRule } from './rule-context';

/** The other input must be this much smaller for index lookups to beat hashing the whole table. */
const MAX_OTHER_SHARE = 0.05;

/**
 * A hash or merge join reads a large table in full to match a few rows from the other side,
 * and the join column has no index: with one the planner can probe instead of scanning.
 */
export const joinKeyWithoutIndexRule: IndexRule = async (ctx) => {
  const out: IndexCandidate[] = [];
  for (const visit of ctx.visits) {
    const join = visit.node;
    if (!JOIN_TYPES.has(join['Node Type']) || join['Node Type'] === 'Nested Loop' || !matters(visit, ctx)) continue;
    for (const side of await joinSides(join)) {
      if (side.scan['Node Type'] !== 'Seq Scan') continue;
      const table = findTable(ctx.catalog, side.scan['Relation Name']!, side.scan.Schema);
      if (!table || table.rowEstimate < MIN_TABLE_ROWS) continue;
      if (side.otherRows > table.rowEstimate * MAX_OTHER_SHARE) continue;
      if (hasLeadingIndex(table, [side.predicate.column])) continue;
      out.push({
        schema: table.schema,
        table: table.name,
        keys: [{ column: side.predicate.column, isExpression: false }],
        predicate: null,
        rule: 'join-key-without-index',
        reason: `${join['Node Type']} reads all ${formatCount(table.rowEstimate)} rows of ${table.name} to match about ${formatCount(side.otherRows)} rows on ${side.predicate.sql}, and ${table.name}.${side.predicate.column} has no index.`,
        benefits: [`Lets the planner probe ${table.name} by ${side.predicate.column} for each of the ~${formatCount(side.otherRows)} joined rows`],
        detection_method: 'rule_based',
      });
    }
  }
  return out;
};
