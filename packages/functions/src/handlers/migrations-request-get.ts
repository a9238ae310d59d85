import { executionSettings } from '@dbops/core/migration-execution';
import { reconcileLostRequests } from '@dbops/core/migration-execution';
import { getRequest, sweepLostRequests } from '@dbops/core/migration-execution';
import { defineHandler, uuidParam } from '../http/define-handler';
import { bare } from '../http/responses';
import { domainDeps } from '../runtime/domain-deps';
import { logger } from '../runtime/logger';
import { getMigrationQueue } from '../runtime/ports/migration-queue';

/** GET /api/v1/migrations/requests/{request_id}: the bare request record; 404 for another user's id. */
export const handler = defineHandler('migrations-request-get', {
  params: uuidParam('request_id'),
  async handle({ params, auth, container }) {
    // A request whose executor vanished is resumed (lost inside a batched step) or failed here, on the poll that notices it.
    await sweepLostRequests(container.store, {
      now: container.clock.now(),
      pendingTimeoutMs: executionSettings(container.settings).pendingTimeoutMs,
      scope: { requestId: params.request_id },
      queue: getMigrationQueue(container),
      log: (message, fields) => logger.warn(message, fields),
    });
    // ...and its record rebuilt from the database's catalog (what is really applied), once.
    await reconcileLostRequests(domainDeps(container), auth.userId, { requestId: params.request_id });
    return bare(await getRequest(container.store, auth.userId, params.request_id));
  },
});
