import type { AstNode } from '../ast';
import { rangeVarName } from '../ast';
import { addedConstraints, subcommands } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleContext } from './rule';

/** Foreign keys an ALTER TABLE adds: ADD CONSTRAINT ... FOREIGN KEY and ADD COLUMN ... REFERENCES. */
function addedForeignKeys(ctx: RuleContext): { con: AstNode; inline: boolean }[] {
  const out = addedConstraints(ctx)
    .filter((c) => c.contype === 'CONSTR_FOREIGN' && !c.skip_validation)
    .map((con) => ({ con, inline: false }));
  for (const cmd of subcommands(ctx, 'AT_AddColumn')) {
    for (const cc of (cmd.def?.ColumnDef?.constraints ?? []) as AstNode[]) {
      // An inline REFERENCES cannot say NOT VALID: it always checks every row.
      if (cc.Constraint?.contype === 'CONSTR_FOREIGN') out.push({ con: cc.Constraint as AstNode, inline: true });
    }
  }
  return out;
}

/** A foreign key locks both tables with SHARE ROW EXCLUSIVE, blocking writes on both. */
export const addingForeignKeyConstraint: Rule = {
  name: 'adding-foreign-key-constraint',
  severity: 'error',
  doc: 'Adding a foreign key blocks writes on both the referencing and the referenced table.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    // The subcommands first: the table lookup only when a foreign key is added.
    const fks = addedForeignKeys(ctx);
    if (!fks.length || !isExisting(ctx)) return NO_FINDINGS;
    return fks.map(({ con, inline }) =>
      finding(
        this.name,
        `The foreign key takes SHARE ROW EXCLUSIVE on ${ctx.facts.table} and ${rangeVarName(con.pktable)} and blocks writes on both while every row is checked.`,
        inline
          ? 'ADD COLUMN without REFERENCES, then ADD CONSTRAINT ... FOREIGN KEY ... NOT VALID, then VALIDATE CONSTRAINT in a later transaction.'
          : 'ADD CONSTRAINT ... FOREIGN KEY ... NOT VALID, then VALIDATE CONSTRAINT in a later transaction.',
      ),
    );
  },
};
