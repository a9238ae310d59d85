import { analyzeMigration } from '@dbops/core/analysis/analyze-migration';
import { APPROVAL_KEY_SECRET, issueApprovalToken } from '@dbops/core/approval/approval-token';
import { findRelevantDocumentChunks } from '@dbops/core/context/document-context';
import { getConnection } from '@dbops/core/connections/connection-service';
import { ensureSnapshot } from '@dbops/core/introspection/introspect-connection';
import { sandboxRunSettings, sandboxServerSettings } from '@dbops/core/sandbox/sandbox-server-settings';
import { z } from 'zod';
import { defineHandler, uuidParam } from '../http/define-handler';
import { bare } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { getSandboxCache } from '../runtime/ports/sandbox-cache';

/** Longest migration text accepted (1 MiB): more than any hand-written migration. */
const MAX_SQL_BYTES = 1024 * 1024;

const body = z.object({
  sql: z
    .string()
    .min(1)
    .refine((s) => s.trim().length > 0, 'sql must contain at least one statement')
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SQL_BYTES, `sql must be at most ${MAX_SQL_BYTES} bytes`),
});

/**
 * POST /api/v1/connections/{connection_id}/migrations/analyze: the analysis report, bare (the
 * spec's reference form), with an approval token only when the sandbox passed.
 */
export const handler = defineHandler('migrations-analyze', {
  params: uuidParam('connection_id'),
  body,
  async handle({ body, params, auth, container }) {
    const deps = domainDeps(container);
    const connectionId = params.connection_id;
    const snapshot = await ensureSnapshot(deps, auth.userId, connectionId);
    const server = sandboxServerSettings(container.settings);
    const run = { ...sandboxRunSettings(container.settings), cache: getSandboxCache(container) };
    const report = await analyzeMigration(body.sql, snapshot, {
      connectionId,
      // With a sandbox server, its address is checked against this connection's before use.
      sandbox: server
        ? {
            ...run,
            server: {
              ...server,
              analysedDatabase: async () => {
                const c = await getConnection(deps, auth.userId, connectionId);
                return { host: c.host, port: c.port, database: c.database_name };
              },
            },
          }
        : run,
      findDocuments: ({ query, tableNames }) => findRelevantDocumentChunks(deps.store, deps.embedder, { userId: auth.userId, connectionId, query, tableNames, limit: 5 }),
    });
    if (report.sandbox_result.passed) {
      const secret = await deps.secrets.getOrCreateRandom(APPROVAL_KEY_SECRET);
      report.approval_token = issueApprovalToken({ userId: auth.userId, connectionId, sql: body.sql }, { secret, now: container.clock.now() }).token;
    }
    return bare(report);
  },
});
