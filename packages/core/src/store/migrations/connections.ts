import type { SchemaMigration } from '../migrate';

/** Schema of the connections feature; owned by its issue. Append, never edit an applied entry. */
export const connectionsMigrations: readonly SchemaMigration[] = [];
