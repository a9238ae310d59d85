import { isVolatileExpression } from '../volatility';
import { columnConstraints, columnDefs } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** Since PostgreSQL 11 only a volatile default forces a table rewrite on ADD COLUMN. */
export const addingFieldWithDefault: Rule = {
  name: 'adding-field-with-default',
  severity: 'error',
  doc: 'Adding a column with a volatile DEFAULT (random(), gen_random_uuid(), clock_timestamp()) rewrites the table.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return [];
    return columnDefs(ctx)
      .filter((c) => columnConstraints(c).some((k) => k.contype === 'CONSTR_DEFAULT' && isVolatileExpression(k.raw_expr)))
      .map((c) => finding(this.name, `Column ${c.colname} has a volatile DEFAULT: the whole table ${ctx.facts.table} is rewritten under ACCESS EXCLUSIVE.`, 'add the column without a default (or with a constant one), set the default afterwards, and backfill existing rows in batches.'));
  },
};
