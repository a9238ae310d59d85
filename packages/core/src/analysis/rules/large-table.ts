import { lockRank } from '../lock-modes';
import { finding, type Rule } from './rule';

/** Live-schema rule: the same statement is harmless on a small table and an outage on a big one. */
export const largeTable: Rule = {
  name: 'large-table',
  severity: 'error',
  live: true,
  doc: 'A locking scan, rewrite, index build or mass update on a table with many rows or gigabytes.',
  check(ctx) {
    const t = ctx.schema.table(ctx.facts.table);
    if (!t || !['scan', 'rewrite', 'index_build', 'data'].includes(ctx.facts.effect)) return [];
    if (ctx.facts.effect === 'data' && ctx.facts.has_where) return [];
    if (t.row_estimate < ctx.largeTableRows && t.total_bytes < ctx.largeTableBytes) return [];
    const size = `${Math.round(t.row_estimate).toLocaleString('en-US')} rows, ${(t.total_bytes / 2 ** 30).toFixed(2)} GiB`;
    const blocking = lockRank(ctx.facts.lock_type) >= lockRank('SHARE') ? ` while holding ${ctx.facts.lock_type}` : '';
    return [
      finding(
        this.name,
        `${ctx.facts.table} is large (${size}): this ${ctx.facts.effect.replace('_', ' ')} processes every row${blocking}.`,
        'run it in a low-traffic window, in batches, or with the concurrent/NOT VALID variant.',
      ),
    ];
  },
};
