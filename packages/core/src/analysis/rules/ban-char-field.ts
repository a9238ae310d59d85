import { newColumnTypes } from './helpers';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const CHAR = /^(bpchar|char|character)(\(|$)/;

/** char(n) pads with spaces and is never faster than text. */
export const banCharField: Rule = {
  name: 'ban-char-field',
  severity: 'warning',
  doc: 'Use text or varchar instead of char(n).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const types = newColumnTypes(ctx);
    let out: RuleFinding[] | undefined;
    for (let i = 0; i < types.length; i++) {
      const c = types[i]!;
      if (CHAR.test(c.type))
        (out ??= []).push(finding(this.name, `Column ${c.name} uses ${c.type}, which pads values with spaces.`, 'text (with a CHECK on length if needed).'));
    }
    return out ?? NO_FINDINGS;
  },
};
