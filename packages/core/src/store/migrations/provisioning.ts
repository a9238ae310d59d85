import type { SchemaMigration } from '../migrate';

/** Schema of the provisioning feature; owned by its issue. Append, never edit an applied entry. */
export const provisioningMigrations: readonly SchemaMigration[] = [];
