import { columnDefs, hasConstraint, hasSubcommand } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

/** ADD COLUMN ... NOT NULL without DEFAULT fails on any table that has rows. */
export const addingRequiredField: Rule = {
  name: 'adding-required-field',
  severity: 'error',
  doc: 'A new NOT NULL column without a DEFAULT fails on a populated table and breaks old inserts.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_AddColumn') || !ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return NO_FINDINGS;
    const cols = columnDefs(ctx);
    let out: RuleFinding[] | undefined;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      if (!hasConstraint(c, 'CONSTR_NOTNULL', 'CONSTR_PRIMARY') || hasConstraint(c, 'CONSTR_DEFAULT', 'CONSTR_IDENTITY', 'CONSTR_GENERATED')) continue;
      (out ??= []).push(
        finding(
          this.name,
          `Column ${c.colname} is NOT NULL without a DEFAULT: the statement fails if ${ctx.facts.table} has rows, and existing INSERTs that omit it break.`,
          'add it nullable (or with a non-volatile DEFAULT), backfill, then add a NOT NULL constraint the safe way.',
        ),
      );
    }
    return out ?? NO_FINDINGS;
  },
};
