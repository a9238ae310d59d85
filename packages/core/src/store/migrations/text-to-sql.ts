import type { SchemaMigration } from '../migrate';

/** Schema of the text-to-sql feature; owned by its issue. Append, never edit an applied entry. */
export const textToSqlMigrations: readonly SchemaMigration[] = [];
