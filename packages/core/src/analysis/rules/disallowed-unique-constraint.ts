import type { AstNode } from '../ast';
import { addedConstraints, columnConstraints, subcommands } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** ADD UNIQUE builds its index under ACCESS EXCLUSIVE. */
export const disallowedUniqueConstraint: Rule = {
  name: 'disallowed-unique-constraint',
  severity: 'error',
  doc: 'Add unique constraints USING INDEX of an index built CONCURRENTLY.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!isExisting(ctx)) return [];
    const inline = subcommands(ctx, 'AT_AddColumn').flatMap((cmd) => (cmd.def?.ColumnDef ? columnConstraints(cmd.def.ColumnDef as AstNode) : []));
    return [...addedConstraints(ctx), ...inline]
      .filter((c) => c.contype === 'CONSTR_UNIQUE' && !c.indexname)
      .map(() =>
        finding(
          this.name,
          `ADD UNIQUE builds an index on ${ctx.facts.table} under ACCESS EXCLUSIVE and fails if duplicates exist.`,
          'CREATE UNIQUE INDEX CONCURRENTLY ...; then ADD CONSTRAINT ... UNIQUE USING INDEX ...',
        ),
      );
  },
};
