import type { PlanNode } from '../api/types';

/** A plan node with what the tree view needs: its own share of the work and whether it is hot. */
export interface PlanView {
  node: PlanNode;
  /** Cost of this node alone (its total minus its children's), or its own time when analyzed. */
  selfCost: number;
  /** selfCost over the whole plan's, 0-1. */
  share: number;
  hot: boolean;
  children: PlanView[];
}

/** A node doing at least this share of the plan's work is highlighted. */
export const HOT_SHARE = 0.3;

const own = (n: PlanNode, analyzed: boolean): number => {
  if (analyzed && n.actual_total_time !== undefined) {
    const total = n.actual_total_time * (n.actual_loops ?? 1);
    const kids = n.children.reduce((s, c) => s + (c.actual_total_time ?? 0) * (c.actual_loops ?? 1), 0);
    return Math.max(0, total - kids);
  }
  return Math.max(0, n.total_cost - n.children.reduce((s, c) => s + c.total_cost, 0));
};

/**
 * Annotates the plan: each node's exclusive cost (or exclusive time when the plan was
 * analyzed) and its share of the sum, so the nodes where the work happens stand out.
 */
export function planView(root: PlanNode, analyzed: boolean): PlanView {
  const sum = (n: PlanNode): number => own(n, analyzed) + n.children.reduce((s, c) => s + sum(c), 0);
  const whole = sum(root) || 1;
  const walk = (n: PlanNode): PlanView => {
    const selfCost = own(n, analyzed);
    const share = selfCost / whole;
    return { node: n, selfCost, share, hot: share >= HOT_SHARE, children: n.children.map(walk) };
  };
  return walk(root);
}
