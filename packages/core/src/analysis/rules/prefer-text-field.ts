import { type AstNode, typeNameText } from '../ast';
import { newColumnTypes, subcommands } from './helpers';
import { finding, type Rule } from './rule';

/** Raising a varchar limit later needs ACCESS EXCLUSIVE; a CHECK constraint can be changed NOT VALID. */
export const preferTextField: Rule = {
  name: 'prefer-text-field',
  severity: 'warning',
  doc: 'Use text with a CHECK on length instead of varchar(n).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const retyped = subcommands(ctx, 'AT_AlterColumnType').map((c) => ({
      name: String(c.name),
      type: typeNameText((c.def?.ColumnDef as AstNode | undefined)?.typeName).toLowerCase(),
    }));
    return [...newColumnTypes(ctx), ...retyped]
      .filter((c) => /^(varchar|character varying)\(/.test(c.type))
      .map((c) =>
        finding(
          this.name,
          `Column ${c.name} is ${c.type}; changing the limit later takes ACCESS EXCLUSIVE.`,
          'text with CHECK (char_length(col) <= n), which can be replaced with NOT VALID + VALIDATE.',
        ),
      );
  },
};
