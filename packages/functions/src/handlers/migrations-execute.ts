import { approvalSigningKey } from '@dbops/core/analysis';
import { loadConnectionTarget } from '@dbops/core/connections';
import { submitMigration } from '@dbops/core/migration-execution';
import { MAX_STATEMENTS } from '@dbops/core/pg';
import { z } from 'zod';
import { defineHandler } from '../http/define-handler';
import { ok } from '../http/responses';
import { withinStatementLimit } from '../http/statement-limit';
import { domainDeps } from '../runtime/domain-deps';
import { getMigrationQueue } from '../runtime/ports/migration-queue';

const body = z.object({
  approval_token: z.string().min(1),
  sql: z.string().min(1).superRefine(withinStatementLimit(MAX_STATEMENTS.migration)),
  connection_id: z.uuid(),
});

/**
 * POST /api/v1/migrations/execute: 202 with `{request_id, status}`; the migration runs in the
 * background. 401 TOKEN_INVALID, 400 TOKEN_MISMATCH, 409 MIGRATION_IN_PROGRESS; a used token
 * answers its existing request.
 */
export const handler = defineHandler('migrations-execute', {
  body,
  async handle({ body, auth, container }) {
    const deps = domainDeps(container);
    const accepted = await submitMigration(
      deps,
      {
        signingKey: await approvalSigningKey(deps.secrets),
        queue: getMigrationQueue(container),
        assertConnection: async (userId, connectionId) => {
          await loadConnectionTarget(deps, userId, connectionId);
        },
      },
      { userId: auth.userId, approvalToken: body.approval_token, sql: body.sql, connectionId: body.connection_id },
    );
    return ok({ request_id: accepted.request_id, status: accepted.status }, 202);
  },
});
