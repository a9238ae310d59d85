import { addedConstraints } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** ADD PRIMARY KEY builds its index under ACCESS EXCLUSIVE. */
export const addingPrimaryKeyConstraint: Rule = {
  name: 'adding-primary-key-constraint',
  severity: 'error',
  doc: 'Add a primary key USING INDEX of an index built CONCURRENTLY.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!isExisting(ctx)) return [];
    return addedConstraints(ctx)
      .filter((c) => c.contype === 'CONSTR_PRIMARY' && !c.indexname)
      .map(() => finding(this.name, `ADD PRIMARY KEY builds a unique index on ${ctx.facts.table} under ACCESS EXCLUSIVE (reads and writes blocked).`, 'CREATE UNIQUE INDEX CONCURRENTLY ... ; then ALTER TABLE ... ADD CONSTRAINT ... PRIMARY KEY USING INDEX ...'));
  },
};
