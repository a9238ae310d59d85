import { type AstNode, typeNameText } from '../ast';
import { newColumnTypes } from './helpers';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const VARCHAR = /^(varchar|character varying)\(/;

const varcharFinding = (rule: string, name: string, type: string): RuleFinding =>
  finding(
    rule,
    `Column ${name} is ${type}; changing the limit later takes ACCESS EXCLUSIVE.`,
    'text with CHECK (char_length(col) <= n), which can be replaced with NOT VALID + VALIDATE.',
  );

/** Raising a varchar limit later needs ACCESS EXCLUSIVE; a CHECK constraint can be changed NOT VALID. */
export const preferTextField: Rule = {
  name: 'prefer-text-field',
  severity: 'warning',
  doc: 'Use text with a CHECK on length instead of varchar(n).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    let out: RuleFinding[] | undefined;
    const types = newColumnTypes(ctx);
    for (let i = 0; i < types.length; i++) if (VARCHAR.test(types[i]!.type)) (out ??= []).push(varcharFinding(this.name, types[i]!.name, types[i]!.type));
    const cmds = ctx.facts.subcommands;
    for (let i = 0; i < cmds.length; i++) {
      const c = cmds[i]!;
      if (c.subtype !== 'AT_AlterColumnType') continue;
      const type = typeNameText((c.def?.ColumnDef as AstNode | undefined)?.typeName).toLowerCase();
      if (VARCHAR.test(type)) (out ??= []).push(varcharFinding(this.name, String(c.name), type));
    }
    return out ?? NO_FINDINGS;
  },
};
