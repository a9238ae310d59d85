import { columnConstraints, columnDefs } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** ADD COLUMN ... NOT NULL without DEFAULT fails on any table that has rows. */
export const addingRequiredField: Rule = {
  name: 'adding-required-field',
  severity: 'error',
  doc: 'A new NOT NULL column without a DEFAULT fails on a populated table and breaks old inserts.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return [];
    return columnDefs(ctx)
      .filter((c) => {
        const k = columnConstraints(c);
        return (
          k.some((x) => x.contype === 'CONSTR_NOTNULL' || x.contype === 'CONSTR_PRIMARY') &&
          !k.some((x) => x.contype === 'CONSTR_DEFAULT' || x.contype === 'CONSTR_IDENTITY' || x.contype === 'CONSTR_GENERATED')
        );
      })
      .map((c) =>
        finding(
          this.name,
          `Column ${c.colname} is NOT NULL without a DEFAULT: the statement fails if ${ctx.facts.table} has rows, and existing INSERTs that omit it break.`,
          'add it nullable (or with a non-volatile DEFAULT), backfill, then add a NOT NULL constraint the safe way.',
        ),
      );
  },
};
