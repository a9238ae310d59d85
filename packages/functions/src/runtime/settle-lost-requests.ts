import { executionSettings, reconcileLostRequests, sweepLostRequests } from '@dbops/core/migration-execution';
import type { Container } from './container';
import { domainDeps } from './domain-deps';
import { logger } from './logger';
import { getMigrationQueue } from './ports/migration-queue';

/**
 * Settles the requests a read is about whose executor vanished, before the read: one lost inside
 * a batched step goes back to the queue (resumed), any other is failed, and its record rebuilt
 * once from the database's catalog (what is really applied). The poll or listing that notices
 * does it, so no background sweeper is needed in a Lambda.
 */
export async function settleLostRequests(container: Container, userId: string, scope: { requestId: string } | { connectionId: string }): Promise<void> {
  await sweepLostRequests(container.store, {
    now: container.clock.now(),
    pendingTimeoutMs: executionSettings(container.settings).pendingTimeoutMs,
    scope,
    queue: getMigrationQueue(container),
    log: (message, fields) => logger.warn(message, fields),
  });
  await reconcileLostRequests(domainDeps(container), userId, scope);
}
