import { settingBefore } from './helpers';
import { firstUnguardedSlow } from './possibly-slow';
import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

/** Long scans or rewrites under a lock should be bounded so a surprise does not hold the lock for minutes. */
export const requireStatementTimeout: Rule = {
  name: 'require-statement-timeout',
  severity: 'warning',
  doc: 'Set statement_timeout before statements that scan, rewrite or index an existing table.',
  check(ctx) {
    if (ctx.assumeExisting && !ctx.schema.table(ctx.facts.table)) {
      if (!firstUnguardedSlow(ctx, 'statement_timeout')) return NO_FINDINGS;
      return [
        finding(
          this.name,
          `No statement_timeout is set before ${ctx.facts.statement_type.replace(/_/g, ' ')}, the first statement of the file that may wait for a lock or run long (without table sizes, dbops cannot tell which will).`,
          "SET statement_timeout = '5s'; (longer where a table is large) at the top of the file.",
        ),
      ];
    }
    const effect = ctx.facts.effect;
    const slow = effect === 'scan' || effect === 'rewrite' || effect === 'index_build';
    if (!slow || !isExisting(ctx) || ctx.facts.non_transactional || settingBefore(ctx, 'statement_timeout')) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `No statement_timeout is set before a statement that reads every row of ${ctx.facts.table}.`,
        "SET statement_timeout = '5min'; (sized to the table) before it.",
      ),
    ];
  },
};
