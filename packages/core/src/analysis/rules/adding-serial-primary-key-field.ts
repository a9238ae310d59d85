import type { AstNode } from '../ast';
import { hasConstraint } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleContext, type RuleFinding } from './rule';

const existing = (ctx: RuleContext): boolean => ctx.facts.statement_type.startsWith('ALTER_TABLE') && isExisting(ctx);

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
    const cmds = ctx.facts.subcommands;
    let out: RuleFinding[] | undefined;
    // ADD PRIMARY KEY first, then new PRIMARY KEY columns; the table lookup only once one is found.
    for (let i = 0; i < cmds.length; i++) {
      const c = cmds[i]!.subtype === 'AT_AddConstraint' ? (cmds[i]!.def?.Constraint as AstNode | undefined) : undefined;
      if (!c || c.contype !== 'CONSTR_PRIMARY' || c.indexname) continue;
      if (!out && !existing(ctx)) return NO_FINDINGS;
      (out ??= []).push(
        finding(
          this.name,
          `ADD PRIMARY KEY builds a unique index on ${ctx.facts.table} under ACCESS EXCLUSIVE (reads and writes blocked).`,
          'CREATE UNIQUE INDEX CONCURRENTLY ... ; then ALTER TABLE ... ADD CONSTRAINT ... PRIMARY KEY USING INDEX ...',
        ),
      );
    }
    for (let i = 0; i < cmds.length; i++) {
      const col = cmds[i]!.subtype === 'AT_AddColumn' ? (cmds[i]!.def?.ColumnDef as AstNode | undefined) : undefined;
      if (!col || !hasConstraint(col, 'CONSTR_PRIMARY')) continue;
      if (!out && !existing(ctx)) return NO_FINDINGS;
      (out ??= []).push(
        finding(
          this.name,
          `Column ${col.colname} is added as the primary key: ${ctx.facts.table} is filled and indexed under ACCESS EXCLUSIVE.`,
          'add the column, backfill, CREATE UNIQUE INDEX CONCURRENTLY, then ADD CONSTRAINT ... PRIMARY KEY USING INDEX.',
        ),
      );
    }
    return out ?? NO_FINDINGS;
  },
};
