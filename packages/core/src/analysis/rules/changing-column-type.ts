import { hasSubcommand, subcommands } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

/** ALTER COLUMN TYPE rewrites the table and its indexes unless the change is binary coercible. */
export const changingColumnType: Rule = {
  name: 'changing-column-type',
  severity: 'error',
  doc: 'ALTER COLUMN TYPE usually rewrites the table under ACCESS EXCLUSIVE and can break clients.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (!hasSubcommand(ctx, 'AT_AlterColumnType') || !isExisting(ctx)) return NO_FINDINGS;
    const cmds = subcommands(ctx, 'AT_AlterColumnType');
    const how =
      ctx.facts.effect === 'rewrite'
        ? `rewrites ${ctx.facts.table} and all its indexes under ACCESS EXCLUSIVE`
        : 'is binary coercible (no rewrite) but still takes ACCESS EXCLUSIVE';
    const narrowing = ctx.facts.narrowing ? ' It narrows the type: existing values may not fit and the statement fails.' : '';
    return [
      finding(
        this.name,
        `Changing the type of ${cmds.map((c) => c.name).join(', ')} ${how}.${narrowing}`,
        'add a new column of the new type, backfill in batches, switch readers and writers, then drop the old column.',
      ),
    ];
  },
};
