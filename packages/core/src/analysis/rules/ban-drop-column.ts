import { hasSubcommand, subcommands } from './helpers';
import { finding, NO_FINDINGS, type Rule } from './rule';

/** Dropping a column loses its data and breaks clients selecting it. */
export const banDropColumn: Rule = {
  name: 'ban-drop-column',
  severity: 'error',
  doc: 'Dropping a column loses data and breaks clients that still read it.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_DropColumn')) return NO_FINDINGS;
    return subcommands(ctx, 'AT_DropColumn').map((c) =>
      finding(
        this.name,
        `Dropping ${ctx.facts.table}.${c.name} deletes its data permanently and breaks queries that still reference it.`,
        'stop reading and writing the column in the application first, deploy, then drop it; back it up if the data may be needed.',
      ),
    );
  },
};
