/**
 * The service's resources as the console reads them (spec sections 2-4 and the documented
 * extras in docs/). Declared here rather than imported from @dbops/core: the console is a
 * browser bundle and must not pull server code into it.
 */

export type RiskCategory = 'low' | 'medium' | 'high' | 'critical';

export interface Connection {
  id: string;
  name: string;
  db_type: string;
  host: string;
  port: number;
  database_name: string;
  is_active: boolean;
  created_at: string;
  last_introspected_at: string | null;
}

export interface SnapshotSummary {
  connection_id: string;
  table_count: number;
  tables: string[];
  snapshot_id: string;
  introspected_at: string;
}

export interface ForeignKey {
  name: string;
  columns: string[];
  referenced_schema: string;
  referenced_table: string;
  referenced_columns: string[];
  on_delete: string;
}

export interface TableDetail {
  name: string;
  kind: string;
  row_estimate: number;
  /** Heap, indexes and TOAST in bytes (documented extra of the context query). */
  total_bytes?: number;
  columns: Array<{ name: string; data_type: string; nullable: boolean }>;
  primary_key: string[] | null;
  foreign_keys: ForeignKey[];
  referenced_by: Array<{ table: string; name: string; columns: string[]; on_delete: string }>;
  indexes: Array<{ name: string; size_bytes: number }>;
}

export interface ContextResult {
  tables: TableDetail[];
  missing_tables: string[];
}

export interface AffectedTable {
  table: string;
  impact: 'direct' | 'cascade';
  cascade_path: string[] | null;
}

export interface RollbackStep {
  statement_index: number;
  sql: string;
  reversible: boolean;
  warning: string | null;
}

export interface StatementReport {
  index: number;
  sql: string;
  statement_type: string;
  table: string;
  lock_type: string;
  lock_duration_ms: number;
  risk_score: number;
  risk_category: RiskCategory;
  affected_tables: AffectedTable[];
  rollback: RollbackStep;
  warnings: string[];
}

export interface ImpactChain {
  statement_index: number;
  root: string;
  path: string[];
  via: string[];
  action: string;
  depth: number;
  description: string;
}

export interface Citation {
  document_filename: string;
  excerpt: string;
  relevance: number;
}

export interface ValidationResult {
  check: string;
  passed: boolean;
  detail: string;
}

export interface SandboxResult {
  passed: boolean;
  migration_applied: boolean;
  migration_error: string | null;
  tables_created: number;
  rows_inserted: number;
  validation_results: ValidationResult[];
  duration_ms: number;
}

export interface NonTransactionalStatement {
  statement_index: number;
  statement_type: string;
  sql: string;
  reason: string;
}

/**
 * A structured finding. The report's `findings` array is newer than the console; every field
 * is read defensively (see lib/findings.ts) and `warnings` is the fallback.
 */
export type RawFinding = Record<string, unknown>;

export interface AnalysisReport {
  connection_id: string;
  total_statements: number;
  risk_score: number;
  risk_category: RiskCategory;
  statements: StatementReport[];
  affected_tables: AffectedTable[];
  rollback_plan: { steps: RollbackStep[]; combined_script: string; has_irreversible: boolean };
  warnings: string[];
  business_narrative: { summary: string; affected_processes: string[]; citations: Citation[]; schema_only: boolean };
  impact_chains: ImpactChain[];
  sandbox_result: SandboxResult;
  approval_token: string | null;
  non_transactional_statements: NonTransactionalStatement[];
  findings?: RawFinding[];
  context_used?: boolean;
}

export type RequestStatus = 'pending' | 'executing' | 'completed' | 'failed';

export interface MigrationRequest {
  request_id: string;
  status: RequestStatus;
  progress: string | null;
  sql: string;
  connection_id: string;
  result: {
    tables_added: string[];
    tables_removed: string[];
    columns_added: Array<{ table: string; column: string; type: string }>;
    execution_time_ms: number;
  } | null;
  error: { code: string; message: string; statement_index: number | null; rolled_back?: boolean; hint?: string | null } | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface PlanNode {
  node_type: string;
  relation_name: string | null;
  total_cost: number;
  plan_rows: number;
  plan_width: number;
  children: PlanNode[];
  actual_startup_time?: number;
  actual_total_time?: number;
  actual_rows?: number;
  actual_loops?: number;
  index_name?: string;
  filter?: string;
  index_cond?: string;
  hash_cond?: string;
  join_type?: string;
}

export interface OptimizationResult {
  connection_id: string;
  original_sql: string;
  execution_plan: { root: PlanNode; raw_plan_text: string; total_cost: number; analyzed: boolean };
  alternatives: Array<{ rank: number; original_sql: string; rewritten_sql: string; explanation: string; estimated_improvement: string }>;
  index_recommendations: Array<{
    table_name: string;
    columns: string[];
    index_type: string;
    create_sql: string;
    reason: string;
    estimated_storage_impact: string;
    write_overhead_warning: string;
    benefits: string[];
    detection_method: string;
    cost_before?: number;
    cost_after?: number | null;
  }>;
  context_used: boolean;
}

/** A stored business document (docs/documents.md). */
export interface DocumentInfo {
  id: string;
  filename: string;
  chunk_count: number;
  size_bytes: number;
  content_type: string;
  uploaded_at: string;
}

/** A refused file of a batch: the reason code and a message fit to show. */
export interface FileRejection {
  filename: string;
  reason: string;
  code: string;
  message: string;
}

/** Where one file of a batch goes: PUT the bytes (local runtime) or POST a form (S3). */
export interface UploadSlot {
  filename: string;
  method: 'PUT' | 'POST';
  url: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
  expires_at: string;
}

/** An upload batch (docs/documents.md, "Upload slots"). */
export interface DocumentBatch {
  batch_id: string;
  status: 'awaiting_upload' | 'queued' | 'ingesting' | 'completed' | 'failed';
  expires_at: string;
  files: { filename: string; size_bytes: number; content_type: string; uploaded: boolean }[];
  result: { files_processed: number; total_chunks: number; documents: (DocumentInfo & { replaced: boolean })[] } | null;
  error: { code: string; message: string } | null;
  rejections: FileRejection[];
  slots?: UploadSlot[];
}
