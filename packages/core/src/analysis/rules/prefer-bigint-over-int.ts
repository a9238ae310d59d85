import { newColumnTypes } from './helpers';
import { finding, type Rule } from './rule';

/** 32-bit ids run out (2^31); changing the type later rewrites the table. */
export const preferBigintOverInt: Rule = {
  name: 'prefer-bigint-over-int',
  severity: 'warning',
  doc: 'Use bigint instead of integer for columns that may grow (ids, counters).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    return newColumnTypes(ctx)
      .filter((c) => /^(int|int4|integer|serial|serial4)$/.test(c.type))
      .map((c) =>
        finding(
          this.name,
          `Column ${c.name} is ${c.type}: it overflows at 2,147,483,647 and widening it later rewrites the table.`,
          'bigint (or bigint GENERATED ... AS IDENTITY).',
        ),
      );
  },
};
