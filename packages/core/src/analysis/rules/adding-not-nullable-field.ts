import { hasSubcommand, subcommands } from './helpers';
import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

/** SET NOT NULL scans the whole table under ACCESS EXCLUSIVE unless a validated CHECK proves it. */
export const addingNotNullableField: Rule = {
  name: 'adding-not-nullable-field',
  severity: 'error',
  doc: 'SET NOT NULL scans the table under ACCESS EXCLUSIVE; prove it first with a CHECK ... NOT VALID then VALIDATE.',
  kinds: ['AlterTableStmt'],
  check(ctx) {
    if (ctx.facts.effect !== 'scan' || !hasSubcommand(ctx, 'AT_SetNotNull') || !isExisting(ctx)) return NO_FINDINGS;
    return subcommands(ctx, 'AT_SetNotNull').map((c) =>
      finding(
        this.name,
        `SET NOT NULL on ${ctx.facts.table}.${c.name} scans every row while holding ACCESS EXCLUSIVE (reads and writes blocked).`,
        `ADD CONSTRAINT ${c.name}_not_null CHECK (${c.name} IS NOT NULL) NOT VALID; VALIDATE CONSTRAINT ${c.name}_not_null; then SET NOT NULL (no scan) and drop the CHECK.`,
      ),
    );
  },
};
