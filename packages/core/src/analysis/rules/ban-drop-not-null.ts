import { hasSubcommand, subcommands } from './helpers';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** Clients may rely on the column never being NULL. */
export const banDropNotNull: Rule = {
  name: 'ban-drop-not-null',
  severity: 'warning',
  doc: 'Dropping NOT NULL can break clients that expect a value.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_DropNotNull')) return NO_FINDINGS;
    return subcommands(ctx, 'AT_DropNotNull').map((c) =>
      finding(
        this.name,
        `Dropping NOT NULL on ${ctx.facts.table}.${c.name} lets NULLs in; readers that assume a value may break.`,
        'make sure every reader handles NULL before deploying the change.',
      ),
    );
  },
};
