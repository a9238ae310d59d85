import { newColumnTypes } from './helpers';
import { finding, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const INT = /^(int|int4|integer|serial|serial4)$/;

/** 32-bit ids run out (2^31); changing the type later rewrites the table. */
export const preferBigintOverInt: Rule = {
  name: 'prefer-bigint-over-int',
  severity: 'warning',
  doc: 'Use bigint instead of integer for columns that may grow (ids, counters).',
  kinds: ['CreateStmt', 'AlterTableStmt'],
  check(ctx) {
    const types = newColumnTypes(ctx);
    let out: RuleFinding[] | undefined;
    for (let i = 0; i < types.length; i++) {
      const c = types[i]!;
      if (INT.test(c.type))
        (out ??= []).push(
          finding(
            this.name,
            `Column ${c.name} is ${c.type}: it overflows at 2,147,483,647 and widening it later rewrites the table.`,
            'bigint (or bigint GENERATED ... AS IDENTITY).',
          ),
        );
    }
    return out ?? NO_FINDINGS;
  },
};
