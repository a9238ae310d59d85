import type { SchemaMigration } from '../migrate';
import { analysisMigrations } from './analysis';
import { billingMigrations } from './billing';
import { connectionsMigrations } from './connections';
import { documentsMigrations } from './documents';
import { documentBatchesMigrations } from './document-batches';
import { documentGenerationsMigrations } from './document-generations';
import { documentsExactLocalMigrations } from './documents-exact-local';
import { documentsVectorIndexMigrations } from './documents-vector-index';
import { executionMigrations } from './execution';
import { foundationMigrations } from './foundation';
import { guardrailsMigrations } from './guardrails';
import { provisioningMigrations } from './provisioning';
import { snapshotDeflateMigrations } from './snapshot-deflate';
import { textToSqlMigrations } from './text-to-sql';

/**
 * The service's schema, in the order it is applied. Each feature owns one file and uses its
 * own id range (foundation 00xx, connections 01xx, analysis 02xx, execution 03xx,
 * documents 04xx, text-to-sql 05xx, billing 06xx, provisioning 07xx, guardrails 08xx), so features can add
 * steps without touching each other; ids are never reused or edited once shipped.
 */
export const serviceMigrations: readonly SchemaMigration[] = [
  ...foundationMigrations,
  ...connectionsMigrations,
  ...snapshotDeflateMigrations,
  ...analysisMigrations,
  ...executionMigrations,
  ...documentsMigrations,
  ...documentsVectorIndexMigrations,
  ...documentBatchesMigrations,
  ...documentsExactLocalMigrations,
  ...documentGenerationsMigrations,
  ...textToSqlMigrations,
  ...billingMigrations,
  ...provisioningMigrations,
  ...guardrailsMigrations,
];
