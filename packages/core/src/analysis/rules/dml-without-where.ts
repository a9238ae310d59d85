import { formatCount } from '../../util/format-count';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** UPDATE or DELETE of every row, usually a mistake in a migration and a long row-lock holder. */
export const dmlWithoutWhere: Rule = {
  name: 'dml-without-where',
  severity: 'warning',
  doc: 'UPDATE or DELETE without WHERE touches every row and holds all row locks until commit.',
  kinds: ['UpdateStmt', 'DeleteStmt'],
  check(ctx) {
    if ((ctx.facts.statement_type !== 'UPDATE' && ctx.facts.statement_type !== 'DELETE') || ctx.facts.has_where) return NO_FINDINGS;
    const rows = ctx.schema.table(ctx.facts.table)?.row_estimate;
    const n = rows !== undefined ? ` (~${formatCount(rows)} rows)` : '';
    return [
      finding(
        this.name,
        `${ctx.facts.statement_type} without WHERE changes every row of ${ctx.facts.table}${n} and locks them until commit; it cannot be undone automatically.`,
        'add a WHERE clause, and for backfills update in batches of a few thousand rows per transaction.',
      ),
    ];
  },
};
