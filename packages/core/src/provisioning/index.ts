export { deleteProvisionedDatabase, listProvisionedDatabases, provisionDatabase, type ProvisionDeps } from './provision-service';
export { type SharedInstance } from './shared-instance';
