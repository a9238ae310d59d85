import { lockRank } from '../lock-modes';
import { settingBefore } from './helpers';
import { finding, isExisting, type Rule } from './rule';

/** A statement queueing for a strong lock blocks everything behind it while it waits; lock_timeout bounds the wait. */
export const requireLockTimeout: Rule = {
  name: 'require-lock-timeout',
  severity: 'warning',
  doc: 'Set lock_timeout before statements taking SHARE or stronger locks on existing tables.',
  check(ctx) {
    if (!isExisting(ctx) || lockRank(ctx.facts.lock_type) < lockRank('SHARE') || settingBefore(ctx, 'lock_timeout')) return [];
    return [finding(this.name, `No lock_timeout is set before taking ${ctx.facts.lock_type} on ${ctx.facts.table}; while it waits for the lock, every later query on the table queues behind it.`, "SET lock_timeout = '2s'; at the top of the migration and retry on timeout.")];
  },
};
