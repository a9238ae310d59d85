import { blockedOperations, lockRank } from '../lock-modes';
import { finding, isExisting, NO_FINDINGS, type Rule, type RuleFinding } from './rule';

const SHARE_UPDATE_EXCLUSIVE = lockRank('SHARE UPDATE EXCLUSIVE');

const fmt = (ms: number): string => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** States, for every existing table a statement locks, the mode, the estimated hold time and what it blocks. */
export const lockImpact: Rule = {
  name: 'lock-impact',
  severity: 'info',
  live: true,
  doc: 'Which lock each statement takes on existing tables, for how long, and what it blocks.',
  check(ctx) {
    let out: RuleFinding[] | undefined;
    const locks = ctx.facts.locks;
    for (let i = 0; i < locks.length; i++) {
      const l = locks[i]!;
      if (lockRank(l.mode) < SHARE_UPDATE_EXCLUSIVE || !isExisting(ctx, l.table)) continue;
      const main = l.table === ctx.facts.table;
      const how = main ? ` for ~${fmt(ctx.lockDurationMs)} (${ctx.facts.effect.replace('_', ' ')}: ${ctx.facts.effect_reason})` : '';
      (out ??= []).push(finding(this.name, `Takes ${l.mode} on ${l.table}${how}; ${blockedOperations(l.mode).text}.`));
    }
    return out ?? NO_FINDINGS;
  },
};
