import type { SchemaMigration } from '../migrate';

/** Schema of the provisioning feature; owned by its issue. Append, never edit an applied entry. */
export const provisioningMigrations: readonly SchemaMigration[] = [
  {
    id: '0701_provisioned_databases',
    statements: [
      // `provisioning` rows reserve a slot of the per-user limit while the shared instance is
      // being changed; they become `active` or disappear (all-or-nothing). `deleted` rows are
      // kept as a record of what was dropped; they never count towards the limit.
      `CREATE TABLE provisioned_databases (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        connection_id uuid REFERENCES connections(id) ON DELETE SET NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        schema_name text NOT NULL UNIQUE,
        role_name text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('provisioning', 'active', 'deleted')),
        created_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`,
      `CREATE INDEX provisioned_databases_user_idx ON provisioned_databases (user_id, created_at)`,
    ],
  },
  {
    id: '0702_provisioned_deleting',
    statements: [
      // `deleting` marks the one delete request that claimed the row, so concurrent deletes of
      // one database answer 404 instead of racing on the shared instance; it keeps its slot
      // until the row turns `deleted`. `deleted_at` holds the claim time meanwhile, so a claim
      // left by a crashed process can be taken over later.
      `ALTER TABLE provisioned_databases DROP CONSTRAINT provisioned_databases_status_check`,
      `ALTER TABLE provisioned_databases ADD CONSTRAINT provisioned_databases_status_check CHECK (status IN ('provisioning', 'active', 'deleting', 'deleted'))`,
    ],
  },
];
