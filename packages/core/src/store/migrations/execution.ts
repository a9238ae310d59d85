import type { SchemaMigration } from '../migrate';

/** Schema of the execution feature; owned by its issue. Append, never edit an applied entry. */
export const executionMigrations: readonly SchemaMigration[] = [];
