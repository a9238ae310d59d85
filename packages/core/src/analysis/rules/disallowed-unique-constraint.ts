import type { AstNode } from '../ast';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const isNewUnique = (c: AstNode | undefined): boolean => c?.contype === 'CONSTR_UNIQUE' && !c.indexname;

/** ADD UNIQUE constraints (ADD CONSTRAINT ... UNIQUE first, then ADD COLUMN ... UNIQUE) not built USING INDEX. */
function countNewUniques(cmds: readonly AstNode[]): number {
  let n = 0;
  for (let i = 0; i < cmds.length; i++) if (cmds[i]!.subtype === 'AT_AddConstraint' && isNewUnique(cmds[i]!.def?.Constraint as AstNode | undefined)) n++;
  for (let i = 0; i < cmds.length; i++) {
    if (cmds[i]!.subtype !== 'AT_AddColumn') continue;
    const list = cmds[i]!.def?.ColumnDef?.constraints as AstNode[] | undefined;
    if (list) for (let j = 0; j < list.length; j++) if (isNewUnique(list[j]!.Constraint as AstNode | undefined)) n++;
  }
  return n;
}

/** ADD UNIQUE builds its index under ACCESS EXCLUSIVE. */
export const disallowedUniqueConstraint: Rule = {
  name: 'disallowed-unique-constraint',
  severity: 'error',
  doc: 'Add unique constraints USING INDEX of an index built CONCURRENTLY.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    // The subcommands first: few statements add a UNIQUE, and the table lookup costs more.
    const n = countNewUniques(ctx.facts.subcommands);
    if (!n || !isExisting(ctx)) return NO_FINDINGS;
    const out: RuleFinding[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        finding(
          this.name,
          `ADD UNIQUE builds an index on ${ctx.facts.table} under ACCESS EXCLUSIVE and fails if duplicates exist.`,
          'CREATE UNIQUE INDEX CONCURRENTLY ...; then ADD CONSTRAINT ... UNIQUE USING INDEX ...',
        ),
      );
    return out;
  },
};
