import { addedConstraints } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** CHECK and FOREIGN KEY constraints validate every row under the lock unless added NOT VALID. */
export const constraintMissingNotValid: Rule = {
  name: 'constraint-missing-not-valid',
  severity: 'error',
  doc: 'Add CHECK and FOREIGN KEY constraints NOT VALID, then VALIDATE them separately.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!isExisting(ctx)) return [];
    return addedConstraints(ctx)
      .filter((c) => (c.contype === 'CONSTR_CHECK' || c.contype === 'CONSTR_FOREIGN') && !c.skip_validation)
      .map((c) =>
        finding(
          this.name,
          `Constraint ${c.conname ?? '(unnamed)'} is validated against every row of ${ctx.facts.table} while the lock is held.`,
          `ADD CONSTRAINT ... NOT VALID; then in a separate transaction ALTER TABLE ... VALIDATE CONSTRAINT ${c.conname ?? '<name>'} (SHARE UPDATE EXCLUSIVE, reads and writes continue).`,
        ),
      );
  },
};
