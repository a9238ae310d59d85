import { newColumnTypes } from './helpers';
import { finding, type Rule } from './rule';

/** char(n) pads with spaces and is never faster than text. */
export const banCharField: Rule = {
  name: 'ban-char-field',
  severity: 'warning',
  doc: 'Use text or varchar instead of char(n).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    return newColumnTypes(ctx)
      .filter((c) => /^(bpchar|char|character)(\(|$)/.test(c.type))
      .map((c) => finding(this.name, `Column ${c.name} uses ${c.type}, which pads values with spaces.`, 'text (with a CHECK on length if needed).'));
  },
};
