import type { SchemaMigration } from '../migrate';

/** Schema of the billing feature; owned by its issue. Append, never edit an applied entry. */
export const billingMigrations: readonly SchemaMigration[] = [];
