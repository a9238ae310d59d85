import { newColumnTypes } from './helpers';
import { finding, type Rule } from './rule';

/** smallint overflows at 32,767. */
export const preferBigintOverSmallint: Rule = {
  name: 'prefer-bigint-over-smallint',
  severity: 'warning',
  doc: 'Use bigint (or integer) instead of smallint for values that may grow.',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    return newColumnTypes(ctx)
      .filter((c) => /^(int2|smallint|smallserial|serial2)$/.test(c.type))
      .map((c) =>
        finding(this.name, `Column ${c.name} is ${c.type}: it overflows at 32,767.`, 'bigint, unless the range is truly bounded (then add a CHECK).'),
      );
  },
};
