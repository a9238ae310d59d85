import { newColumnTypes } from './helpers';
import { finding, type Rule } from './rule';

/** timestamp without time zone loses the offset and misbehaves across DST and zones. */
export const preferTimestamptz: Rule = {
  name: 'prefer-timestamptz',
  severity: 'warning',
  doc: 'Use timestamptz instead of timestamp without time zone.',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const fromAlter = ctx.facts.subcommands
      .filter((c) => c.subtype === 'AT_AlterColumnType')
      .map((c) => ({
        name: String(c.name),
        type: (c.def?.ColumnDef?.typeName?.names ?? []).map((n: { String?: { sval?: string } }) => n.String?.sval).pop() ?? '',
      }));
    return [...newColumnTypes(ctx), ...fromAlter]
      .filter((c) => /^timestamp(\(\d\))?$/.test(c.type))
      .map((c) => finding(this.name, `Column ${c.name} is timestamp without time zone.`, 'timestamptz.'));
  },
};
