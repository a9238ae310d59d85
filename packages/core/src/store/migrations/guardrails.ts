import type { SchemaMigration } from '../migrate';

/**
 * Schema of the guardrails feature (ids 08xx): the owner's policy on an API key (caller and
 * guardrail ceiling, read-only, connections, opaque functions); null = the owner's full rights.
 * Append, never edit an applied entry.
 */
export const guardrailsMigrations: readonly SchemaMigration[] = [
  {
    id: '0801_api_key_policy',
    statements: ['ALTER TABLE api_keys ADD COLUMN policy jsonb'],
  },
];
