import { columnConstraints, columnDefs } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** A new primary-key column fills every row and builds a unique index under ACCESS EXCLUSIVE. */
export const addingSerialPrimaryKeyField: Rule = {
  name: 'adding-serial-primary-key-field',
  severity: 'error',
  doc: 'Adding a primary-key column to an existing table rewrites it and builds an index under ACCESS EXCLUSIVE.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return [];
    return columnDefs(ctx)
      .filter((c) => columnConstraints(c).some((k) => k.contype === 'CONSTR_PRIMARY' || k.contype === 'CONSTR_UNIQUE'))
      .map((c) => finding(this.name, `Column ${c.colname} is added with a key: ${ctx.facts.table} is filled and indexed under ACCESS EXCLUSIVE.`, 'add the column, backfill, CREATE UNIQUE INDEX CONCURRENTLY, then ADD CONSTRAINT ... USING INDEX.'));
  },
};
