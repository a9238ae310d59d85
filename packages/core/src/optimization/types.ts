import type { AnalyzeSkipped } from './analyze-guardrail';

/** A node of the execution plan as the spec's optimization result carries it (section 2). */
export interface PlanNode {
  node_type: string;
  relation_name: string | null;
  total_cost: number;
  plan_rows: number;
  plan_width: number;
  children: PlanNode[];
  /** Present when the plan was analyzed. */
  actual_startup_time?: number;
  actual_total_time?: number;
  actual_rows?: number;
  actual_loops?: number;
  // Extras beyond the spec, kept because they explain the recommendations.
  schema?: string;
  alias?: string;
  startup_cost?: number;
  join_type?: string;
  index_name?: string;
  index_cond?: string;
  filter?: string;
  join_filter?: string;
  hash_cond?: string;
  merge_cond?: string;
  rows_removed_by_filter?: number;
  sort_key?: string[];
  sort_method?: string;
  sort_space_used_kb?: number;
  sort_space_type?: string;
  parent_relationship?: string;
}

export interface ExecutionPlan {
  root: PlanNode;
  raw_plan_text: string;
  total_cost: number;
  analyzed: boolean;
}

export interface Alternative {
  rank: number;
  original_sql: string;
  rewritten_sql: string;
  explanation: string;
  estimated_improvement: string;
}

export type DetectionMethod = 'rule_based' | 'llm_suggested';

export interface IndexRecommendation {
  table_name: string;
  columns: string[];
  index_type: string;
  create_sql: string;
  reason: string;
  estimated_storage_impact: string;
  write_overhead_warning: string;
  benefits: string[];
  detection_method: DetectionMethod;
  // Extras: how the recommendation was checked.
  validated: boolean;
  validation_method: 'hypopg' | 'estimate';
  cost_before: number;
  cost_after: number | null;
}

/** The bare optimization result of the spec (section 2). */
export interface OptimizationResult {
  connection_id: string;
  original_sql: string;
  execution_plan: ExecutionPlan;
  alternatives: Alternative[];
  index_recommendations: IndexRecommendation[];
  context_used: boolean;
  /**
   * Present when `analyze=true` was asked and a plain EXPLAIN ran instead: the statement is
   * more than a read the strict guardrail allows, or has parameters (docs/query-optimization.md).
   */
  analyze_skipped?: AnalyzeSkipped;
}
