import { formatCount } from '../../util/format-count';
import { findTable } from '../live-catalog';
import { hasLeadingIndex, type IndexCandidate } from '../index-candidate';
import { JOIN_TYPES, joinSides } from './join-conditions';
import { MIN_TABLE_ROWS, type IndexRule } from './rule-context';

/**
 * The query joins through a foreign key whose referencing columns have no index. Besides this
 * query, such an index also serves deletes and key updates on the referenced table.
 */
export const foreignKeyWithoutIndexRule: IndexRule = async (ctx) => {
  const out: IndexCandidate[] = [];
  for (const visit of ctx.visits) {
    if (!JOIN_TYPES.has(visit.node['Node Type'])) continue;
    for (const side of await joinSides(visit.node)) {
      const table = findTable(ctx.catalog, side.scan['Relation Name']!, side.scan.Schema);
      if (!table || table.rowEstimate < MIN_TABLE_ROWS) continue;
      const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === side.predicate.column);
      if (!fk || hasLeadingIndex(table, fk.columns)) continue;
      out.push({
        schema: table.schema,
        table: table.name,
        keys: fk.columns.map((c) => ({ column: c, isExpression: false })),
        predicate: null,
        rule: 'foreign-key-without-index',
        reason: `The query joins ${table.name} (${formatCount(table.rowEstimate)} rows) through its foreign key ${table.name}(${fk.columns.join(', ')}) -> ${fk.referencedTable}, which has no index on the referencing column.`,
        benefits: [
          `Index lookups for the join on ${fk.columns.join(', ')}`,
          `Faster DELETE and key UPDATE on ${fk.referencedTable} (the foreign-key check no longer scans ${table.name})`,
        ],
        detection_method: 'rule_based',
      });
    }
  }
  return out;
};
