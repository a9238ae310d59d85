import { lockRank } from '../lock-modes';
import { formatCount } from '../../util/format-count';
import { finding, NO_FINDINGS, type Rule } from './rule';

const SHARE = lockRank('SHARE');

/** Live-schema rule: the same statement is harmless on a small table and an outage on a big one. */
export const largeTable: Rule = {
  name: 'large-table',
  severity: 'error',
  live: true,
  doc: 'A locking scan, rewrite, index build or mass update on a table with many rows or gigabytes.',
  check(ctx) {
    // The effect first: it rules out most statements without a table lookup.
    const effect = ctx.facts.effect;
    if (effect === 'data') {
      if (ctx.facts.has_where) return NO_FINDINGS;
    } else if (effect !== 'scan' && effect !== 'rewrite' && effect !== 'index_build') return NO_FINDINGS;
    const t = ctx.schema.table(ctx.facts.table);
    if (!t || (t.row_estimate < ctx.largeTableRows && t.total_bytes < ctx.largeTableBytes)) return NO_FINDINGS;
    const size = `${formatCount(t.row_estimate)} rows, ${(t.total_bytes / 2 ** 30).toFixed(2)} GiB`;
    const blocking = lockRank(ctx.facts.lock_type) >= SHARE ? ` while holding ${ctx.facts.lock_type}` : '';
    return [
      finding(
        this.name,
        `${ctx.facts.table} is large (${size}): this ${effect.replace('_', ' ')} processes every row${blocking}.`,
        'run it in a low-traffic window, in batches, or with the concurrent/NOT VALID variant.',
      ),
    ];
  },
};
