import type { RawPlanNode } from './raw-plan';
import type { PlanNode } from './types';

/** Maps PostgreSQL's JSON plan node to the spec's plan node, keeping the fields that explain it. */
export function mapPlanNode(raw: RawPlanNode, analyzed: boolean): PlanNode {
  const node: PlanNode = {
    node_type: raw['Node Type'],
    relation_name: raw['Relation Name'] ?? null,
    total_cost: raw['Total Cost'],
    plan_rows: raw['Plan Rows'],
    plan_width: raw['Plan Width'],
    children: (raw.Plans ?? []).map((c) => mapPlanNode(c, analyzed)),
  };
  if (analyzed && raw['Actual Total Time'] !== undefined) {
    node.actual_startup_time = raw['Actual Startup Time'] ?? 0;
    node.actual_total_time = raw['Actual Total Time'];
    node.actual_rows = raw['Actual Rows'] ?? 0;
    node.actual_loops = raw['Actual Loops'] ?? 0;
  } else if (analyzed) {
    // "never executed" nodes carry no timing; report zeros so the shape stays uniform.
    node.actual_startup_time = 0;
    node.actual_total_time = 0;
    node.actual_rows = 0;
    node.actual_loops = 0;
  }
  const extras: Array<[keyof PlanNode, unknown]> = [
    ['schema', raw.Schema],
    ['alias', raw.Alias],
    ['startup_cost', raw['Startup Cost']],
    ['join_type', raw['Join Type']],
    ['index_name', raw['Index Name']],
    ['index_cond', raw['Index Cond']],
    ['filter', raw.Filter],
    ['join_filter', raw['Join Filter']],
    ['hash_cond', raw['Hash Cond']],
    ['merge_cond', raw['Merge Cond']],
    ['rows_removed_by_filter', raw['Rows Removed by Filter']],
    ['sort_key', raw['Sort Key']],
    ['sort_method', raw['Sort Method']],
    ['sort_space_used_kb', raw['Sort Space Used']],
    ['sort_space_type', raw['Sort Space Type']],
    ['parent_relationship', raw['Parent Relationship']],
  ];
  for (const [k, v] of extras) if (v !== undefined) (node as unknown as Record<string, unknown>)[k] = v;
  return node;
}
