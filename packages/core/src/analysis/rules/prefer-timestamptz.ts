import type { AstNode } from '../ast';
import { newColumnTypes } from './helpers';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const TIMESTAMP = /^timestamp(\(\d\))?$/;

/** timestamp without time zone loses the offset and misbehaves across DST and zones. */
export const preferTimestamptz: Rule = {
  name: 'prefer-timestamptz',
  severity: 'warning',
  doc: 'Use timestamptz instead of timestamp without time zone.',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    let out: RuleFinding[] | undefined;
    const types = newColumnTypes(ctx);
    for (let i = 0; i < types.length; i++) {
      const c = types[i]!;
      if (TIMESTAMP.test(c.type)) (out ??= []).push(finding(this.name, `Column ${c.name} is timestamp without time zone.`, 'timestamptz.'));
    }
    // ALTER COLUMN ... TYPE: the last part of the type name as written (so `pg_catalog.timestamp` counts).
    const cmds = ctx.facts.subcommands;
    for (let i = 0; i < cmds.length; i++) {
      const c = cmds[i]!;
      if (c.subtype !== 'AT_AlterColumnType') continue;
      const names = (c.def?.ColumnDef?.typeName?.names ?? []) as AstNode[];
      const type = (names.length ? (names[names.length - 1]!.String?.sval as string | undefined) : undefined) ?? '';
      if (TIMESTAMP.test(type)) (out ??= []).push(finding(this.name, `Column ${String(c.name)} is timestamp without time zone.`, 'timestamptz.'));
    }
    return out ?? NO_FINDINGS;
  },
};
