import { newColumnTypes } from './helpers';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const SMALLINT = /^(int2|smallint|smallserial|serial2)$/;

/** smallint overflows at 32,767. */
export const preferBigintOverSmallint: Rule = {
  name: 'prefer-bigint-over-smallint',
  severity: 'warning',
  doc: 'Use bigint (or integer) instead of smallint for values that may grow.',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const types = newColumnTypes(ctx);
    let out: RuleFinding[] | undefined;
    for (let i = 0; i < types.length; i++) {
      const c = types[i]!;
      if (SMALLINT.test(c.type))
        (out ??= []).push(
          finding(this.name, `Column ${c.name} is ${c.type}: it overflows at 32,767.`, 'bigint, unless the range is truly bounded (then add a CHECK).'),
        );
    }
    return out ?? NO_FINDINGS;
  },
};
