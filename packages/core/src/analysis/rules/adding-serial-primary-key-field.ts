import { addedConstraints, columnConstraints, columnDefs, hasSubcommand } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

/**
 * A primary key added to an existing table builds its unique index under ACCESS EXCLUSIVE, and a
 * new primary-key column is also filled for every row. squawk's name covers both forms
 * (ADD PRIMARY KEY and ADD COLUMN ... PRIMARY KEY); dbops's earlier `adding-primary-key-constraint` is merged here.
 */
export const addingSerialPrimaryKeyField: Rule = {
  name: 'adding-serial-primary-key-field',
  severity: 'error',
  doc: 'Adding a primary key (ADD PRIMARY KEY, or a new PRIMARY KEY column) to an existing table builds its index under ACCESS EXCLUSIVE.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_AddConstraint') && !hasSubcommand(ctx, 'AT_AddColumn')) return NO_FINDINGS;
    if (!ctx.facts.statement_type.startsWith('ALTER_TABLE') || !isExisting(ctx)) return NO_FINDINGS;
    const constraints = addedConstraints(ctx)
      .filter((c) => c.contype === 'CONSTR_PRIMARY' && !c.indexname)
      .map(() =>
        finding(
          this.name,
          `ADD PRIMARY KEY builds a unique index on ${ctx.facts.table} under ACCESS EXCLUSIVE (reads and writes blocked).`,
          'CREATE UNIQUE INDEX CONCURRENTLY ... ; then ALTER TABLE ... ADD CONSTRAINT ... PRIMARY KEY USING INDEX ...',
        ),
      );
    const columns = columnDefs(ctx)
      .filter((c) => columnConstraints(c).some((k) => k.contype === 'CONSTR_PRIMARY'))
      .map((c) =>
        finding(
          this.name,
          `Column ${c.colname} is added as the primary key: ${ctx.facts.table} is filled and indexed under ACCESS EXCLUSIVE.`,
          'add the column, backfill, CREATE UNIQUE INDEX CONCURRENTLY, then ADD CONSTRAINT ... PRIMARY KEY USING INDEX.',
        ),
      );
    if (!columns.length) return constraints.length ? constraints : NO_FINDINGS;
    for (let i = 0; i < columns.length; i++) constraints.push(columns[i]!);
    return constraints;
  },
};
