/**
 * The service's resources as the console reads them: the route table's response schemas
 * (`ResponseOf`), the same source the OpenAPI document, the CLI and the tests use. A type-only
 * import: nothing of the service's code enters the browser bundle (scripts/check-imports.mjs
 * allows the console no other import of another package).
 */
import type { ResponseOf } from '@dbops/functions/routes';

export type Connection = ResponseOf<'connections-list'>[number];
export type SnapshotSummary = ResponseOf<'connections-introspect'>;

export type ContextResult = ResponseOf<'context-query'>;
export type TableDetail = ContextResult['tables'][number];
export type ForeignKey = TableDetail['foreign_keys'][number];

export type AnalysisReport = ResponseOf<'migrations-analyze'>;
export type RiskCategory = AnalysisReport['risk_category'];
export type StatementReport = AnalysisReport['statements'][number];
export type AffectedTable = AnalysisReport['affected_tables'][number];
export type RollbackStep = AnalysisReport['rollback_plan']['steps'][number];
export type ImpactChain = AnalysisReport['impact_chains'][number];
export type Citation = AnalysisReport['business_narrative']['citations'][number];
export type SandboxResult = AnalysisReport['sandbox_result'];
export type ValidationResult = SandboxResult['validation_results'][number];
export type NonTransactionalStatement = AnalysisReport['non_transactional_statements'][number];
export type Finding = AnalysisReport['findings'][number];
export type SafePlan = NonNullable<AnalysisReport['safe_plan']>;
export type SafePlanStep = SafePlan['steps'][number];

export type MigrationRequest = ResponseOf<'migrations-request-get'>;
export type RequestStatus = MigrationRequest['status'];
export type MigrationError = NonNullable<MigrationRequest['error']>;

export type OptimizationResult = ResponseOf<'queries-optimize'>;
export type PlanNode = OptimizationResult['execution_plan']['root'];

export type DocumentInfo = ResponseOf<'documents-list'>[number];
export type DocumentBatch = ResponseOf<'documents-batch-get'>;
export type FileRejection = DocumentBatch['rejections'][number];
export type UploadSlot = NonNullable<DocumentBatch['slots']>[number];
