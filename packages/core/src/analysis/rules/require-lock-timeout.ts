import { lockRank } from '../lock-modes';
import { settingBefore } from './helpers';
import { firstUnguardedSlow } from './possibly-slow';
import { finding, isExisting, NO_FINDINGS, type Rule } from './rule';

const SHARE = lockRank('SHARE');

/** A statement queueing for a strong lock blocks everything behind it while it waits; lock_timeout bounds the wait. */
export const requireLockTimeout: Rule = {
  name: 'require-lock-timeout',
  severity: 'warning',
  doc: 'Set lock_timeout before statements taking SHARE or stronger locks on existing tables.',
  check(ctx) {
    if (ctx.assumeExisting && !ctx.schema.table(ctx.facts.table)) {
      if (!firstUnguardedSlow(ctx, 'lock_timeout')) return NO_FINDINGS;
      return [
        finding(
          this.name,
          `No lock_timeout is set before ${ctx.facts.statement_type.replace(/_/g, ' ')}, the first statement of the file that takes a lock others may hold; while it waits, every later query on that object queues behind it.`,
          "SET lock_timeout = '2s'; at the top of the file and retry on timeout.",
        ),
      ];
    }
    if (!isExisting(ctx) || lockRank(ctx.facts.lock_type) < SHARE || settingBefore(ctx, 'lock_timeout')) return NO_FINDINGS;
    return [
      finding(
        this.name,
        `No lock_timeout is set before taking ${ctx.facts.lock_type} on ${ctx.facts.table}; while it waits for the lock, every later query on the table queues behind it.`,
        "SET lock_timeout = '2s'; at the top of the migration and retry on timeout.",
      ),
    ];
  },
};
