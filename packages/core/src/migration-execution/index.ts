export { executeMigrationRequest, type ExecutorPorts } from './execute-migration-request';
export { executionSettings } from './execution-settings';
export { reconcileLostRequests } from './lost-run-reconcile';
export { type MigrationRequestRecord } from './request-record';
export { expireStaleRequests, getRequest, listRequests } from './request-store';
export { submitMigration } from './submit-migration';
export { sweepLostRequests } from './sweep-lost-requests';
