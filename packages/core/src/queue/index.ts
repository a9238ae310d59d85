export { type MigrationMessage, type MigrationQueue, parseMigrationMessage, serializeMigrationMessage } from './migration-queue';
