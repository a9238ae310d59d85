export { applyProcessSettings, type Container, setContainer } from './container';
export { domainDeps } from './domain-deps';
export { registerHandlerLoaders } from './handler-registry';
export { errorFields, logger } from './logger';
export { installDocumentUploads } from './ports/document-uploads';
export { installMigrationQueue } from './ports/migration-queue';
export { getSecretStore } from './ports/secret-store';
export { installSharedInstanceProvider } from './ports/shared-instance';
