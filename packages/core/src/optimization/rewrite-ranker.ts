import { improvementText } from './cost-format';
import type { PlanSession } from './plan-session';
import type { RewriteCandidate, RewriteContext, RewriteRule } from './rewrite-rules/rewrite-context';
import { parseTree, walkAst } from '../pg/index';
import type { Alternative } from './types';

export interface RankedRewrites {
  alternatives: Alternative[];
  usedDocuments: boolean;
  /** Candidates dropped and why (for logs and tests). */
  dropped: Array<{ rule: string; reason: string }>;
}

const paramCountOf = async (sql: string): Promise<number> => {
  let n = 0;
  walkAst((await parseTree(sql)).stmts, (v) => {
    const r = v.ParamRef as { number?: number } | undefined;
    if (r?.number) n = Math.max(n, r.number);
  });
  return n;
};

/**
 * Runs the rules, keeps a rewrite only when it parses with the PostgreSQL parser and EXPLAIN
 * plans it on the user's database at a lower estimated cost than the original's (equal for
 * width-only rewrites), and ranks by that cost.
 */
export async function rankRewrites(
  session: PlanSession,
  ctx: RewriteContext,
  baseCost: number,
  rules: ReadonlyArray<{ name: string; rule: RewriteRule }>,
): Promise<RankedRewrites> {
  const dropped: RankedRewrites['dropped'] = [];
  const kept: Array<{ c: RewriteCandidate; cost: number; order: number }> = [];
  for (const [order, { name, rule }] of rules.entries()) {
    let candidates: RewriteCandidate[];
    try {
      candidates = await rule(ctx);
    } catch (e) {
      dropped.push({ rule: name, reason: `rule failed: ${(e as Error).message}` });
      continue;
    }
    for (const c of candidates) {
      let params: number;
      try {
        params = await paramCountOf(c.rewritten_sql);
      } catch (e) {
        dropped.push({ rule: c.rule, reason: `does not parse: ${(e as Error).message}` });
        continue;
      }
      let cost: number;
      try {
        cost = await session.rolledBack(() => session.planCost(c.rewritten_sql, params));
      } catch (e) {
        dropped.push({ rule: c.rule, reason: `does not plan: ${(e as Error).message}` });
        continue;
      }
      if (cost > baseCost || (cost === baseCost && !c.keepAtEqualCost)) {
        dropped.push({ rule: c.rule, reason: `no lower estimated cost (${baseCost} -> ${cost})` });
        continue;
      }
      kept.push({ c, cost, order });
    }
  }
  kept.sort((a, b) => a.cost - b.cost || a.order - b.order);
  return {
    alternatives: kept.map(({ c, cost }, i) => ({
      rank: i + 1,
      original_sql: ctx.sql,
      rewritten_sql: c.rewritten_sql,
      explanation: c.explanation,
      estimated_improvement: improvementText(baseCost, cost),
    })),
    usedDocuments: kept.some((k) => k.c.usedDocuments),
    dropped,
  };
}
