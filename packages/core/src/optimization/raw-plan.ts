/** One node of `EXPLAIN (FORMAT JSON)` output, keys as PostgreSQL writes them. */
export interface RawPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Schema?: string;
  Alias?: string;
  'Startup Cost': number;
  'Total Cost': number;
  'Plan Rows': number;
  'Plan Width': number;
  'Actual Startup Time'?: number;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Parent Relationship'?: string;
  'Join Type'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Join Filter'?: string;
  'Hash Cond'?: string;
  'Merge Cond'?: string;
  'Rows Removed by Filter'?: number;
  'Sort Key'?: string[];
  'Sort Method'?: string;
  'Sort Space Used'?: number;
  'Sort Space Type'?: string;
  Plans?: RawPlanNode[];
  [key: string]: unknown;
}

/** Every node of a raw plan with its parent, root first. */
export interface PlanVisit {
  node: RawPlanNode;
  parent: RawPlanNode | null;
  /** Position among the parent's children (0 = outer, 1 = inner for joins). */
  childIndex: number;
}

export function flattenPlan(root: RawPlanNode): PlanVisit[] {
  const out: PlanVisit[] = [];
  const go = (node: RawPlanNode, parent: RawPlanNode | null, childIndex: number): void => {
    out.push({ node, parent, childIndex });
    (node.Plans ?? []).forEach((c, i) => go(c, node, i));
  };
  go(root, null, 0);
  return out;
}

/** Names of the relations a plan scans. */
export function scannedRelations(root: RawPlanNode): Array<{ schema: string; name: string }> {
  const seen = new Map<string, { schema: string; name: string }>();
  for (const { node } of flattenPlan(root)) {
    if (node['Relation Name']) {
      const schema = node.Schema ?? 'public';
      seen.set(`${schema}.${node['Relation Name']}`, { schema, name: node['Relation Name'] });
    }
  }
  return [...seen.values()];
}
