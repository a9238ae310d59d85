import type { z } from 'zod';
import type { ApiKeySummary, CreatedApiKey } from '@dbops/core/accounts';
import type { AnalysisReport } from '@dbops/core/analysis';
import type { Balance, CheckoutStarted, PaymentEventOutcome, PaymentRecord, UsageRecord } from '@dbops/core/billing';
import type { ConnectionView } from '@dbops/core/connections';
import type { ContextQueryResult } from '@dbops/core/context';
import type { BatchView, DocumentSummary, UploadResult } from '@dbops/core/documents';
import type { SnapshotSummary } from '@dbops/core/introspection';
import type { MigrationRequestRecord } from '@dbops/core/migration-execution';
import type { OptimizationResult } from '@dbops/core/optimization';
import type { CreatedProvisionedDatabase, ProvisionedDatabaseView } from '@dbops/core/provisioning';
import type { ExecuteResult } from '@dbops/core/sql-execution';
import type { TextToSqlResult } from '@dbops/core/text-to-sql';
import type * as R from './response-schemas';

// Compile-time proof that each response schema describes the domain type its handler returns:
// `Describes<S, T>` only type-checks when schema S's output is a T. Kept apart from
// response-schemas.ts so that the route table (and infra/, which reads it) needs no domain types.
// Nothing imports this file; `npm test`'s type-check reads every file under src/.

type Describes<S extends z.ZodType<T>, T> = S;

export type ResponseSchemasMatchTheDomain = [
  Describes<typeof R.connectionResponse, ConnectionView>,
  Describes<typeof R.analysisReportResponse, AnalysisReport>,
  Describes<typeof R.migrationRequestResponse, MigrationRequestRecord>,
  Describes<typeof R.apiKeyResponse, ApiKeySummary>,
  Describes<typeof R.apiKeyCreatedResponse, CreatedApiKey>,
  Describes<typeof R.balanceResponse, Balance>,
  Describes<(typeof R.usageResponse)['shape']['usage']['element'], UsageRecord>,
  Describes<(typeof R.paymentsResponse)['shape']['payments']['element'], PaymentRecord>,
  Describes<(typeof R.documentListResponse)['element'], DocumentSummary>,
  Describes<typeof R.provisionedDatabaseResponse, ProvisionedDatabaseView>,
  Describes<typeof R.snapshotSummaryResponse, SnapshotSummary>,
  Describes<typeof R.uploadResultResponse, UploadResult>,
  Describes<typeof R.provisionedDatabaseCreatedResponse, CreatedProvisionedDatabase>,
  Describes<typeof R.optimizationResponse, OptimizationResult>,
  Describes<typeof R.textToSqlResponse, TextToSqlResult>,
  Describes<typeof R.sqlExecutionResponse, ExecuteResult>,
  Describes<typeof R.contextQueryResponse, ContextQueryResult>,
  Describes<typeof R.checkoutResponse, CheckoutStarted>,
  Describes<(typeof R.webhookReceivedResponse)['shape']['outcome'], PaymentEventOutcome>,
];

// The other way, for the closed sets the schemas restate (lock modes, risk categories,
// severities, statuses): `Covers<S, T>` only type-checks when every value of domain type T is one
// schema S accepts, so a mode or status added in the domain fails here, not only in the test that
// happens to produce it.
type Covers<S extends z.ZodType, T extends z.output<S>> = [S, T];

type ReportStatement = (typeof R.analysisReportResponse)['shape']['statements']['element']['shape'];

export type ResponseSchemasAcceptEveryDomainValue = [
  Covers<ReportStatement['lock_type'], AnalysisReport['statements'][number]['lock_type']>,
  Covers<ReportStatement['risk_category'], AnalysisReport['risk_category']>,
  Covers<(typeof R.analysisReportResponse)['shape']['findings']['element']['shape']['severity'], AnalysisReport['findings'][number]['severity']>,
  Covers<(typeof R.migrationRequestResponse)['shape']['status'], MigrationRequestRecord['status']>,
  Covers<(typeof R.executeAcceptedResponse)['shape']['status'], MigrationRequestRecord['status']>,
  Covers<(typeof R.documentBatchResponse)['shape']['status'], BatchView['status']>,
  Covers<(typeof R.webhookReceivedResponse)['shape']['outcome'], PaymentEventOutcome>,
];
