import type { SchemaMigration } from '../migrate';

/** Schema of the analysis feature; owned by its issue. Append, never edit an applied entry. */
export const analysisMigrations: readonly SchemaMigration[] = [];
