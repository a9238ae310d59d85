import type { AstNode } from '../ast';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

/** CHECK and FOREIGN KEY constraints validate every row under the lock unless added NOT VALID. */
export const constraintMissingNotValid: Rule = {
  name: 'constraint-missing-not-valid',
  severity: 'error',
  doc: 'Add CHECK and FOREIGN KEY constraints NOT VALID, then VALIDATE them separately.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    const cmds = ctx.facts.subcommands;
    let out: RuleFinding[] | undefined;
    // The subcommands first, the table lookup only when a constraint is added without NOT VALID.
    for (let i = 0; i < cmds.length; i++) {
      const c = cmds[i]!.subtype === 'AT_AddConstraint' ? (cmds[i]!.def?.Constraint as AstNode | undefined) : undefined;
      if (!c || (c.contype !== 'CONSTR_CHECK' && c.contype !== 'CONSTR_FOREIGN') || c.skip_validation) continue;
      if (!out) {
        if (!isExisting(ctx)) return NO_FINDINGS;
        out = [];
      }
      out.push(
        finding(
          this.name,
          `Constraint ${c.conname ?? '(unnamed)'} is validated against every row of ${ctx.facts.table} while the lock is held.`,
          `ADD CONSTRAINT ... NOT VALID; then in a separate transaction ALTER TABLE ... VALIDATE CONSTRAINT ${c.conname ?? '<name>'} (SHARE UPDATE EXCLUSIVE, reads and writes continue).`,
        ),
      );
    }
    return out ?? NO_FINDINGS;
  },
};
