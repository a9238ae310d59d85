import { loadConnectionTarget } from '@dbops/core/connections';
import { connectPg } from '@dbops/core/connections';
import { executeMigrationRequest, type ExecutorPorts } from '@dbops/core/migration-execution';
import { parseMigrationMessage } from '@dbops/core/queue';
import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type Container, getContainer } from '../runtime/container';
import { getMigrationQueue } from '../runtime/ports/migration-queue';
import { type DomainDeps, domainDeps } from '../runtime/domain-deps';
import { errorFields, logger } from '../runtime/logger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const portsFor = (container: Container, deps: DomainDeps): ExecutorPorts => ({
  loadTarget: (claim) => loadConnectionTarget(deps, claim.userId, claim.connectionId),
  // connectPg builds on pgClientConfig and adds sslmode=prefer's fallback and clear failure reasons.
  connect: async (target) => (await connectPg(target, { applicationName: 'dbops-migration' })).client,
  afterApplied: async (claim) => {
    // Re-introspect so that the next analysis sees the new schema.
    const { introspectConnection } = await import('@dbops/core/introspection');
    await introspectConnection(deps, claim.userId, claim.connectionId);
  },
  requeue: (requestId) => getMigrationQueue(container).enqueue({ requestId }),
  log: (message, fields) => logger.warn(message, fields),
});

/**
 * The migration executor: one Lambda subscribed to the migration queue (SQS, batch size 1,
 * `ReportBatchItemFailures`). The local runtime's in-process queue calls this same handler
 * with the same event shape. A message for a request that is not pending is acknowledged
 * without effect (at-least-once delivery never runs a migration twice); only a failure of the
 * state store itself is reported back for redelivery.
 */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  const container = await getContainer();
  const deps = domainDeps(container);
  const ports = portsFor(container, deps);
  const batchItemFailures: SQSBatchItemFailure[] = [];
  for (const record of event.Records) {
    const message = parseMigrationMessage(record.body);
    if (!message || !UUID.test(message.requestId)) {
      // Retrying a message we cannot read would never succeed: acknowledge and log it.
      logger.warn('dropped an unreadable migration message', { messageId: record.messageId });
      continue;
    }
    try {
      // Statements are cut off before Lambda's own timeout would kill the executor mid-run.
      const remainingMs = context ? () => context.getRemainingTimeInMillis() : undefined;
      const disposition = await executeMigrationRequest(deps, ports, message.requestId, remainingMs ? { remainingMs } : {});
      logger.info('migration message handled', { messageId: record.messageId, requestId: message.requestId, disposition });
    } catch (error) {
      logger.error('migration message failed; it will be redelivered', { messageId: record.messageId, requestId: message.requestId, ...errorFields(error) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
