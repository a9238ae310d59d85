import type { IndexCandidate } from '../index-candidate';
import type { LiveCatalog } from '../live-catalog';
import type { PlanVisit, RawPlanNode } from '../raw-plan';

/** What every plan-based index rule reads. */
export interface IndexRuleContext {
  root: RawPlanNode;
  visits: PlanVisit[];
  catalog: LiveCatalog;
  totalCost: number;
  analyzed: boolean;
}

/** A plan-based index rule: proposes candidates, validation happens later. */
export type IndexRule = (ctx: IndexRuleContext) => Promise<IndexCandidate[]>;

/** Below this many rows a sequential scan is as good as any index. */
export const MIN_TABLE_ROWS = 1000;

/** A node matters when it (times its loops) accounts for at least this share of the plan's cost. */
export const MIN_COST_SHARE = 0.1;

/** Cost of a node over all its executions: inner sides of nested loops run once per outer row. */
export function cumulativeCost(visit: PlanVisit, visits: PlanVisit[]): number {
  let cost = visit.node['Total Cost'];
  let cur: PlanVisit | undefined = visit;
  while (cur?.parent) {
    const parentVisit: PlanVisit | undefined = visits.find((v) => v.node === cur!.parent);
    if (!parentVisit) break;
    if (parentVisit.node['Node Type'] === 'Nested Loop' && cur.childIndex === 1) {
      cost *= Math.max(1, parentVisit.node.Plans?.[0]?.['Plan Rows'] ?? 1);
    }
    cur = parentVisit;
  }
  return cost;
}

export const matters = (visit: PlanVisit, ctx: IndexRuleContext): boolean =>
  ctx.totalCost <= 0 || Math.min(ctx.totalCost, cumulativeCost(visit, ctx.visits)) / ctx.totalCost >= MIN_COST_SHARE;

export const isSeqScan = (n: RawPlanNode): boolean => n['Node Type'] === 'Seq Scan';

/** Below Materialize/Gather wrappers, the node that actually scans. */
export function unwrap(node: RawPlanNode): RawPlanNode {
  let n = node;
  while (['Materialize', 'Gather', 'Gather Merge', 'Memoize'].includes(n['Node Type']) && n.Plans?.length === 1) n = n.Plans[0]!;
  return n;
}
