import type { SchemaMigration } from '../migrate';

/** Schema of the documents feature; owned by its issue. Append, never edit an applied entry. */
export const documentsMigrations: readonly SchemaMigration[] = [];
