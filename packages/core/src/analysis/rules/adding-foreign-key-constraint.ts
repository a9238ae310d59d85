import { addedConstraints } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** A foreign key locks both tables with SHARE ROW EXCLUSIVE, blocking writes on both. */
export const addingForeignKeyConstraint: Rule = {
  name: 'adding-foreign-key-constraint',
  doc: 'Adding a foreign key blocks writes on both the referencing and the referenced table.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!isExisting(ctx)) return [];
    return addedConstraints(ctx)
      .filter((c) => c.contype === 'CONSTR_FOREIGN' && !c.skip_validation)
      .map(() => finding(this.name, `The foreign key takes SHARE ROW EXCLUSIVE on ${ctx.facts.table} and ${ctx.facts.fk_targets.join(', ')} and blocks writes on both while every row is checked.`, 'ADD CONSTRAINT ... FOREIGN KEY ... NOT VALID, then VALIDATE CONSTRAINT in a later transaction.'));
  },
};
