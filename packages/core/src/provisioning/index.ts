export {
  type CreatedProvisionedDatabase,
  deleteProvisionedDatabase,
  listProvisionedDatabases,
  provisionDatabase,
  type ProvisionDeps,
} from './provision-service';
export { type ProvisionedDatabaseView } from './provisioned-view';
export { type SharedInstance } from './shared-instance';
